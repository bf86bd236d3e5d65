import { HttpStatus } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AppException, notFound } from '../app.exception';
import { MemberIdPipe } from '../member-id.pipe';

const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** The status and body of what `pipe` throws for `value`. */
function refusal(pipe: MemberIdPipe, value: unknown): { status: number; error: unknown } {
  try {
    pipe.transform(value);
  } catch (e) {
    expect(e).toBeInstanceOf(AppException);
    const exception = e as AppException;
    return { status: exception.getStatus(), error: (exception.getResponse() as { error: unknown }).error };
  }
  throw new Error(`${String(value)} was accepted`);
}

describe('MemberIdPipe', () => {
  it('answers the id lower-cased', () => {
    expect(new MemberIdPipe().transform(ID.toUpperCase())).toBe(ID);
  });

  it("refuses what is not a UUID with 400 'userId must be a UUID'", () => {
    for (const value of ['not-a-uuid', `${ID}x`, undefined, 42]) {
      expect(refusal(new MemberIdPipe(), value)).toEqual({ status: HttpStatus.BAD_REQUEST, error: 'userId must be a UUID' });
    }
  });

  it('answers with the exception a service gives it instead', () => {
    const pipe = new MemberIdPipe({ exceptionFactory: () => notFound('Member not found') });
    expect(refusal(pipe, 'not-a-uuid')).toEqual({ status: HttpStatus.NOT_FOUND, error: 'Member not found' });
    expect(pipe.transform(ID)).toBe(ID);
  });

  it('is made by Nest as a class pipe, with the default answer', async () => {
    const moduleRef = await Test.createTestingModule({ providers: [MemberIdPipe] }).compile();
    expect(refusal(moduleRef.get(MemberIdPipe), 'nope')).toEqual({ status: HttpStatus.BAD_REQUEST, error: 'userId must be a UUID' });
  });
});
