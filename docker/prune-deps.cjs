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
// Whole packages are kept, never single files, so a package that reads its own files at run time
// (nsfwjs' model, the TensorFlow wasm binaries) keeps them. Prints what it kept and freed.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { builtinModules } = require('node:module');

const [distDir, modulesDir, flag] = process.argv.slice(2);
if (!distDir || !modulesDir) {
  process.stderr.write('usage: node docker/prune-deps.cjs <dist folder> <node_modules> [--dry-run]\n');
  process.exit(2);
}
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

/** Where `name` resolves from a package folder: its own node_modules, then each one above it. */
function resolveFrom(folder, name) {
  for (let dir = folder; dir.startsWith(modulesDir); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
  }
  const top = path.join(modulesDir, name);
  return fs.existsSync(path.join(top, 'package.json')) ? top : null;
}

/** The bare package names the code below `folder` requires or imports (nested node_modules aside). */
function namedBy(folder) {
  const names = new Set();
  for (const file of files(folder, ['.js', '.cjs', '.mjs'])) {
    for (const match of fs.readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const specifier = match[1] ?? match[2];
      if (!builtins.has(specifier) && !builtins.has(specifier.split('/')[0])) names.add(packageOf(specifier));
    }
  }
  return names;
}

const named = namedBy(distDir);
const kept = new Set(); // package folders
const missing = [];
const undeclared = []; // `name (for <package>)` of the hoisted copies kept
const queue = [...named].map((name) => ({ name, from: modulesDir }));
while (queue.length) {
  const { name, from, by } = queue.shift();
  const folder = resolveFrom(from, name);
  if (!folder) {
    if (from === modulesDir) missing.push(name);
    continue;
  }
  if (kept.has(folder)) continue;
  kept.add(folder);
  if (by) undeclared.push(`${name} (for ${by})`);
  const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8'));
  const wanted = { ...manifest.peerDependencies, ...manifest.optionalDependencies, ...manifest.dependencies };
  for (const dependency of Object.keys(wanted)) queue.push({ name: dependency, from: folder });
  // What its code loads without declaring it (a bundle such as @tensorflow/tfjs's tf.node.js
  // requires `long`, a dependency of tfjs-core, and finds it only because npm hoisted a copy):
  // kept when installed where Node would find it, as it is found in the workspace.
  for (const loaded of namedBy(folder)) {
    if (!(loaded in wanted) && loaded !== manifest.name) queue.push({ name: loaded, from: folder, by: manifest.name });
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
