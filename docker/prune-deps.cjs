#!/usr/bin/env node
// Keeps in a production node_modules only the packages one built app can load, so that a service
// image carries its own dependencies rather than the monorepo's (TensorFlow is profile-service's
// alone: 330 MB in every other image otherwise).
//
//   node docker/prune-deps.cjs <dist folder of the app> <node_modules> [--dry-run]
//
// A package is kept when the app's compiled code names it in require()/import(), or when a kept
// package depends on it: dependencies, optionalDependencies and peerDependencies that are installed
// (TypeORM loads its driver `pg` and Nest its platform by computed names; both are such peers), or
// when a kept package's own code names it without declaring it and it is installed (a hoisted copy).
// Its code, there, is what its entry points (main or the exports map's ".", and the subpaths
// required of it) reach by relative require/import, not every file it ships: its tests, CLIs,
// bundled demos and build plugins would keep TypeScript, ESLint and React in every image.
// Whole packages are kept, never single files, so a package that reads its own files at run time
// (nsfwjs' model, the TensorFlow wasm binaries) keeps them. Prints what it kept and freed.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { builtinModules } = require('node:module');

const [distArg, modulesArg, flag] = process.argv.slice(2);
if (!distArg || !modulesArg) {
  process.stderr.write('usage: node docker/prune-deps.cjs <dist folder> <node_modules> [--dry-run]\n');
  process.exit(2);
}
// Absolute, as the paths a relative require resolves to are.
const distDir = path.resolve(distArg);
const modulesDir = path.resolve(modulesArg);
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** Every file below `dir` whose name ends with one of `endings`. */
function files(dir, endings) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : files(full, endings);
    return endings.some((e) => entry.name.endsWith(e)) ? [full] : [];
  });
}

/** `@scope/name/sub/path` → `@scope/name`; `name/sub` → `name`. */
const packageOf = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

const SPECIFIER = /\b(?:require|import)\s*\(\s*['"]([^'"./][^'"]*)['"]\s*\)|\bfrom\s+['"]([^'"./][^'"]*)['"]/g;
const RELATIVE = /\b(?:require|import)\s*\(\s*['"](\.{1,2}(?:\/[^'"]*)?)['"]\s*\)|\bfrom\s+['"](\.{1,2}(?:\/[^'"]*)?)['"]/g;

const isFile = (p) => fs.statSync(p, { throwIfNoEntry: false })?.isFile() === true;

/** The file Node would load for a path (as given, with an extension, a folder's index or main). */
function resolveFile(p) {
  for (const candidate of [p, `${p}.js`, `${p}.cjs`, `${p}.mjs`, `${p}.json`]) if (isFile(candidate)) return candidate;
  const manifest = path.join(p, 'package.json');
  if (isFile(manifest)) {
    const main = JSON.parse(fs.readFileSync(manifest, 'utf8')).main;
    const target = main && resolveFile(path.join(p, main));
    if (target) return target;
  }
  for (const index of ['index.js', 'index.cjs', 'index.mjs']) if (isFile(path.join(p, index))) return path.join(p, index);
  return null;
}

/**
 * The files Node loads for `require('<package>')` (subpath '') or `require('<package>/<subpath>')`:
 * the matching entry of the exports map (each of its conditions), else main or the path itself.
 */
function entryFiles(folder, manifest, subpath) {
  const exportsField = manifest.exports;
  const bySubpath = exportsField && typeof exportsField === 'object' && !Array.isArray(exportsField) && Object.keys(exportsField).some((k) => k.startsWith('.'));
  const exported = bySubpath ? exportsField[subpath ? `./${subpath}` : '.'] : subpath ? undefined : exportsField;
  const targets = new Set(subpath ? [subpath] : [manifest.main ?? 'index.js']);
  const collect = (value) => {
    if (typeof value === 'string') targets.add(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  collect(exported);
  return [...targets].filter((t) => typeof t === 'string' && !t.includes('*')).map((t) => resolveFile(path.join(folder, t))).filter(Boolean);
}

/** Code files of each kept package already read, so a subpath asked for later reads only what is new. */
const scanned = new Map();

/** The bare specifiers of the code reachable from `entries` inside `folder`, by relative require/import. */
function reachedSpecifiers(folder, entries) {
  const seen = scanned.get(folder) ?? new Set();
  scanned.set(folder, seen);
  const specifiers = new Set();
  const pending = [...entries];
  while (pending.length) {
    const file = pending.pop();
    if (seen.has(file) || !/\.[cm]?js$/.test(file)) continue;
    seen.add(file);
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(SPECIFIER)) specifiers.add(match[1] ?? match[2]);
    for (const match of text.matchAll(RELATIVE)) {
      const target = resolveFile(path.resolve(path.dirname(file), match[1] ?? match[2]));
      if (target && target.startsWith(folder + path.sep) && !target.slice(folder.length).includes(`${path.sep}node_modules${path.sep}`)) pending.push(target);
    }
  }
  return [...specifiers].filter((s) => !builtins.has(s) && !builtins.has(s.split('/')[0]));
}

/** Where `name` resolves from a package folder: its own node_modules, then each one above it. */
function resolveFrom(folder, name) {
  for (let dir = folder; dir.startsWith(modulesDir); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
  }
  const top = path.join(modulesDir, name);
  return fs.existsSync(path.join(top, 'package.json')) ? top : null;
}

/** The bare specifiers the app's code below `folder` requires or imports. */
function namedSpecifiers(folder) {
  const specifiers = new Set();
  for (const file of files(folder, ['.js', '.cjs', '.mjs'])) {
    for (const match of fs.readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const specifier = match[1] ?? match[2];
      if (!builtins.has(specifier) && !builtins.has(specifier.split('/')[0])) specifiers.add(specifier);
    }
  }
  return specifiers;
}

const appSpecifiers = namedSpecifiers(distDir);
const named = new Set([...appSpecifiers].map(packageOf));
const kept = new Set(); // package folders
const missing = [];
const undeclared = []; // `name (for <package>)` of the hoisted copies kept
const subpathOf = (specifier) => specifier.split('/').slice(specifier.startsWith('@') ? 2 : 1).join('/');
const queue = [...appSpecifiers].map((specifier) => ({ specifier, from: modulesDir }));
while (queue.length) {
  const { specifier, from, by } = queue.shift();
  const name = packageOf(specifier);
  const folder = resolveFrom(from, name);
  if (!folder) {
    if (from === modulesDir) missing.push(name);
    continue;
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8'));
  const wanted = { ...manifest.peerDependencies, ...manifest.optionalDependencies, ...manifest.dependencies };
  const subpath = subpathOf(specifier);
  const first = !kept.has(folder);
  if (first) {
    kept.add(folder);
    if (by) undeclared.push(`${name} (for ${by})`);
    for (const dependency of Object.keys(wanted)) queue.push({ specifier: dependency, from: folder });
  } else if (!subpath) {
    continue;
  }
  // What its code loads without declaring it (a bundle such as @tensorflow/tfjs's tf.node.js
  // requires `long`, a dependency of tfjs-core, and finds it only because npm hoisted a copy):
  // kept when installed where Node would find it, as it is found in the workspace.
  const entries = [...(first ? entryFiles(folder, manifest, '') : []), ...(subpath ? entryFiles(folder, manifest, subpath) : [])];
  for (const loaded of reachedSpecifiers(folder, entries)) {
    const loadedName = packageOf(loaded);
    // Itself or a declared dependency by a subpath: that subpath's code is read in turn.
    if (loadedName === manifest.name || loadedName in wanted) {
      if (subpathOf(loaded)) queue.push({ specifier: loaded, from: folder });
    } else {
      queue.push({ specifier: loaded, from: folder, by: manifest.name });
    }
  }
}

// The top-level entries to keep: each kept package that lives directly in node_modules (nested
// ones live inside a kept folder), and .bin is dropped (nothing runs a package's CLI in an image).
const keepTop = new Set(
  [...kept]
    .map((folder) => path.relative(modulesDir, folder))
    .filter((rel) => !rel.includes(`${path.sep}node_modules${path.sep}`))
    .map((rel) => rel.split(path.sep).slice(0, rel.startsWith('@') ? 2 : 1).join('/')),
);
let freed = 0;
const sizeOf = (p) => {
  const stat = fs.lstatSync(p);
  if (!stat.isDirectory()) return stat.size;
  return fs.readdirSync(p).reduce((sum, entry) => sum + sizeOf(path.join(p, entry)), 0);
};
const remove = (p) => {
  freed += sizeOf(p);
  if (flag !== '--dry-run') fs.rmSync(p, { recursive: true, force: true });
};
for (const entry of fs.readdirSync(modulesDir)) {
  const full = path.join(modulesDir, entry);
  if (entry.startsWith('.')) {
    if (entry === '.bin') remove(full);
    continue;
  }
  if (entry.startsWith('@')) {
    for (const scoped of fs.readdirSync(full)) if (!keepTop.has(`${entry}/${scoped}`)) remove(path.join(full, scoped));
    if (flag !== '--dry-run' && fs.readdirSync(full).length === 0) fs.rmdirSync(full);
  } else if (!keepTop.has(entry)) {
    remove(full);
  }
}
if (missing.length) {
  process.stderr.write(`prune-deps: the app loads packages that are not installed: ${missing.join(', ')}\n`);
  process.exit(1);
}
process.stdout.write(
  `prune-deps: ${path.basename(distDir)} names ${named.size} packages; kept ${keepTop.size} top-level packages, freed ${(freed / 1e6).toFixed(0)} MB\n` +
    (undeclared.length ? `prune-deps: kept as loaded without being declared: ${undeclared.join(', ')}\n` : ''),
);
