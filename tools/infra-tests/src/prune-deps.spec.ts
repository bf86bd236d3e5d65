import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rootPath } from './lib/workspace';

/** Writes a tree of files ({ 'a/b.json': '...' }) into a fresh folder. */
function tree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prune-deps-'));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}
const pkg = (name: string, fields: Record<string, unknown> = {}) => JSON.stringify({ name, version: '1.0.0', ...fields });
const prune = (dir: string) =>
  spawnSync(process.execPath, [rootPath('docker/prune-deps.cjs'), path.join(dir, 'dist'), path.join(dir, 'node_modules')], {
    encoding: 'utf8',
  });
const present = (dir: string, p: string) => fs.existsSync(path.join(dir, 'node_modules', p));

describe('docker/prune-deps.cjs (a service image keeps only what the service loads)', () => {
  it('keeps the packages the code names, their dependencies, installed peers and nested copies, and drops the rest', () => {
    const dir = tree({
      'dist/main.js': `require("typeorm"); const c = require('node:crypto'); require("@nestjs/core/injector");`,
      'dist/lib/x.js': `import('ioredis');`,
      'node_modules/typeorm/package.json': pkg('typeorm', { dependencies: { tslib: '*' }, peerDependencies: { pg: '*', mysql2: '*' } }),
      'node_modules/typeorm/node_modules/tslib/package.json': pkg('tslib'),
      'node_modules/tslib/package.json': pkg('tslib'),
      'node_modules/pg/package.json': pkg('pg', { dependencies: { 'pg-pool': '*' } }),
      'node_modules/pg-pool/package.json': pkg('pg-pool'),
      'node_modules/@nestjs/core/package.json': pkg('@nestjs/core', { optionalDependencies: { '@nestjs/platform-express': '*' } }),
      'node_modules/@nestjs/platform-express/package.json': pkg('@nestjs/platform-express'),
      // An exports map: "." and the subpaths required count, not every subpath it offers (./plugin).
      'node_modules/@nestjs/swagger/package.json': pkg('@nestjs/swagger', {
        exports: { '.': { require: './index.js' }, './plugin': './dist/plugin/index.js', './dist/*': './dist/*.js' },
      }),
      'node_modules/ioredis/package.json': pkg('ioredis'),
      'node_modules/@tensorflow/tfjs/package.json': pkg('@tensorflow/tfjs'),
      'node_modules/nsfwjs/package.json': pkg('nsfwjs'),
      'node_modules/.bin/tsc': '',
    });
    const result = prune(dir);
    expect(result.status).toBe(0);
    for (const kept of ['typeorm', 'typeorm/node_modules/tslib', 'pg', 'pg-pool', '@nestjs/core', '@nestjs/platform-express', 'ioredis'])
      expect({ kept, present: present(dir, kept) }).toEqual({ kept, present: true });
    // tslib is nested under typeorm, so the hoisted copy is nobody's; TensorFlow is another app's.
    for (const dropped of ['tslib', '@nestjs/swagger', '@tensorflow', 'nsfwjs', '.bin'])
      expect({ dropped, present: present(dir, dropped) }).toEqual({ dropped, present: false });
    expect(result.stdout).toMatch(/names 3 packages; kept 6 top-level packages/);
  });

  it('keeps a package that a kept package’s code loads without declaring it (a hoisted copy), counting only the code its entry points reach', () => {
    const dir = tree({
      'dist/main.js': `require("@tensorflow/tfjs"); require("@nestjs/swagger/dist/decorators");`,
      // tfjs's bundle requires `long` (tfjs-core's dependency) and finds npm's hoisted copy; the
      // optional `xor4096` is not installed and stays a name only.
      'node_modules/@tensorflow/tfjs/package.json': pkg('@tensorflow/tfjs', { main: 'dist/tf.node.js', dependencies: { '@tensorflow/tfjs-core': '*' } }),
      'node_modules/@tensorflow/tfjs/dist/tf.node.js': `var Long = require('long'); try { require('xor4096'); } catch {} require('./random');`,
      // Reached from the entry by a relative require: what it loads counts too.
      'node_modules/@tensorflow/tfjs/dist/random.js': `module.exports = require('seedrandom');`,
      // Shipped but reached from no entry point: a test and a build plugin.
      'node_modules/@tensorflow/tfjs/test/tf.spec.js': `require('chai');`,
      'node_modules/@tensorflow/tfjs-core/package.json': pkg('@tensorflow/tfjs-core', { dependencies: { long: '4' } }),
      'node_modules/@tensorflow/tfjs-core/node_modules/long/package.json': pkg('long'),
      // An exports map: "." and the subpaths required count, not every subpath it offers (./plugin).
      'node_modules/@nestjs/swagger/package.json': pkg('@nestjs/swagger', {
        exports: { '.': { require: './index.js' }, './plugin': './dist/plugin/index.js', './dist/*': './dist/*.js' },
      }),
      'node_modules/@nestjs/swagger/index.js': `module.exports = {};`,
      // A subpath the app requires is an entry point as well.
      'node_modules/@nestjs/swagger/dist/decorators/index.js': `require('../constants'); require('lodash/merge');`,
      'node_modules/@nestjs/swagger/dist/constants.js': `require('path-to-regexp');`,
      'node_modules/@nestjs/swagger/dist/plugin/index.js': `require('typescript');`,
      'node_modules/long/package.json': pkg('long'),
      'node_modules/seedrandom/package.json': pkg('seedrandom'),
      'node_modules/lodash/package.json': pkg('lodash'),
      'node_modules/path-to-regexp/package.json': pkg('path-to-regexp'),
      'node_modules/typescript/package.json': pkg('typescript'),
      'node_modules/chai/package.json': pkg('chai'),
      'node_modules/left-pad/package.json': pkg('left-pad'),
    });
    const result = prune(dir);
    expect(result.status).toBe(0);
    for (const kept of ['@tensorflow/tfjs', '@tensorflow/tfjs-core/node_modules/long', 'long', 'seedrandom', 'lodash', 'path-to-regexp'])
      expect({ kept, present: present(dir, kept) }).toEqual({ kept, present: true });
    for (const dropped of ['typescript', 'chai', 'left-pad'])
      expect({ dropped, present: present(dir, dropped) }).toEqual({ dropped, present: false });
    expect(result.stdout).toMatch(/kept as loaded without being declared: .*long \(for @tensorflow\/tfjs\)/);
  });

  it('fails the build when the code loads a package that is not installed', () => {
    const dir = tree({
      'dist/main.js': `require("left-pad");`,
      'node_modules/typeorm/package.json': pkg('typeorm'),
    });
    const result = prune(dir);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/not installed: left-pad/);
  });
});
