import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISOLATED_TESTS } from './isolated-tests';

const APP = path.resolve(__dirname, '../..');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return /\.test\.tsx?$/.test(entry.name) ? [path.relative(APP, full).split(path.sep).join('/')] : [];
  });
}

describe('test isolation (vite.config.mts)', () => {
  it('runs every file that mocks a module or stubs a global in a module graph of its own', () => {
    const needIsolation = testFiles(path.join(APP, 'src'))
      .filter((file) => file !== 'src/testing/isolation.test.ts')
      .filter((file) => /\bvi\.(mock|doMock|stubGlobal|stubEnv)\(/.test(readFileSync(path.join(APP, file), 'utf8')));
    expect(needIsolation.sort()).toEqual([...ISOLATED_TESTS].sort());
  });
});
