import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { createValidationPipe } from '../../errors/validation';
import { QueryInteger } from '../query-integer';

const MESSAGE = 'limit must be a whole number from 1 to 50';

class PageQuery {
  @IsOptional()
  @QueryInteger()
  @Min(1, { message: MESSAGE })
  @Max(50, { message: MESSAGE })
  @IsInt({ message: MESSAGE })
  limit = 20;
}

class ShortQuery {
  @IsOptional()
  @QueryInteger({ maxDigits: 6 })
  @Min(1, { message: MESSAGE })
  @Max(50, { message: MESSAGE })
  @IsInt({ message: MESSAGE })
  limit = 20;
}

const read = (type: new () => object, query: Record<string, unknown>) =>
  createValidationPipe().transform(query, { type: 'query', metatype: type });

describe('QueryInteger', () => {
  it('reads a value of digits as that number, leading zeros included; absent keeps the default', async () => {
    await expect(read(PageQuery, { limit: '7' })).resolves.toEqual({ limit: 7 });
    await expect(read(PageQuery, { limit: '0000000007' })).resolves.toEqual({ limit: 7 });
    await expect(read(PageQuery, {})).resolves.toEqual({ limit: 20 });
  });

  it.each(['-1', '+1', '1.5', ' 1', '1e1', '', 'ten', '00000000001'])(
    'leaves %j as sent, refused with the field message',
    async (limit) => {
      await expect(read(PageQuery, { limit })).rejects.toMatchObject({ response: { error: MESSAGE } });
    },
  );

  it('leaves a repeated key (an array) as sent, refused with the field message', async () => {
    await expect(read(PageQuery, { limit: ['1', '2'] })).rejects.toMatchObject({
      response: { error: MESSAGE },
    });
  });

  it('reads at most maxDigits digits', async () => {
    await expect(read(ShortQuery, { limit: '000007' })).resolves.toEqual({ limit: 7 });
    await expect(read(ShortQuery, { limit: '0000007' })).rejects.toMatchObject({
      response: { error: MESSAGE },
    });
  });
});
