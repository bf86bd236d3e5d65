#!/usr/bin/env node
/**
 * Validates Kubernetes objects offline against the OpenAPI schemas bundled in the npm package
 * `kubernetes-models` (one class per apiVersion/kind; `new Kind(object).validate()` throws on a
 * schema error). Nothing is fetched. A kind the package has no class for (a custom resource) is
 * an error unless allowed with `--allow-kind <apiVersion>/<Kind>`.
 *
 *   kubectl kustomize k8s/overlays/prod | node tools/infra-tests/validate-k8s.mjs
 *   node tools/infra-tests/validate-k8s.mjs rendered.yaml --allow-kind cert-manager.io/v1/Certificate
 *   node tools/infra-tests/validate-k8s.mjs --json   # stdin [{ source, object }], stdout a report
 *                                                   # (tools/infra-tests/src/schemas.spec.ts)
 *
 * ESM because kubernetes-models is ESM-only; the Jest suites (CommonJS) run it as a child process.
 * The schemas are open, like the API server's: a misspelt field name is not an error here.
 */
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import yaml from 'js-yaml';

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9.-]*$/;
const models = new Map();

/** The kubernetes-models class for an apiVersion and kind, or undefined when it has none. */
export async function modelFor(apiVersion, kind) {
  const key = `${apiVersion}/${kind}`;
  if (models.has(key)) return models.get(key);
  let model;
  const parts = typeof apiVersion === 'string' ? apiVersion.split('/') : [];
  if (typeof kind === 'string' && SEGMENT.test(kind) && parts.length >= 1 && parts.length <= 2 && parts.every((p) => SEGMENT.test(p))) {
    try {
      const mod = await import(`kubernetes-models/${parts.join('/')}/${kind}`);
      const candidate = mod[kind];
      // The class states its own apiVersion and kind: a file found by another spelling is not it.
      if (candidate && candidate.apiVersion === apiVersion && candidate.kind === kind) model = candidate;
    } catch (e) {
      if (!['ERR_MODULE_NOT_FOUND', 'ERR_PACKAGE_PATH_NOT_EXPORTED'].includes(e?.code)) throw e;
    }
  }
  models.set(key, model);
  return model;
}

const nameOf = (object) => object?.metadata?.name ?? '(no name)';

/**
 * Validates `[{ source, object }]`. Answers how many were checked, the invalid ones with their
 * schema errors, and the ones whose kind has no schema here.
 */
export async function validateObjects(entries) {
  const invalid = [];
  const unknown = [];
  for (const { source, object } of entries) {
    const id = { source, apiVersion: object?.apiVersion, kind: object?.kind, name: nameOf(object) };
    const Model = await modelFor(object?.apiVersion, object?.kind);
    if (!Model) {
      unknown.push(id);
      continue;
    }
    try {
      new Model(object).validate();
    } catch (e) {
      const errors = Array.isArray(e?.errors)
        ? e.errors.map((x) => `${x.instancePath || '/'} ${x.message}`)
        : [String(e?.message ?? e)];
      invalid.push({ ...id, errors });
    }
  }
  return { checked: entries.length, invalid, unknown };
}

export function describeProblem(p) {
  return `${p.kind}/${p.name} (${p.apiVersion}) in ${p.source}${p.errors ? `: ${p.errors.join('; ')}` : ''}`;
}

async function main(argv) {
  const allowed = new Set();
  const files = [];
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--json') json = true;
    else if (argv[i] === '--allow-kind' && argv[i + 1]) allowed.add(argv[++i]);
    else if (argv[i] === '--help' || argv[i] === '-h') {
      process.stdout.write('usage: validate-k8s.mjs [--allow-kind <apiVersion>/<Kind>]... [file.yaml ...] (stdin when none)\n');
      return 0;
    } else files.push(argv[i]);
  }
  const inputs = files.length > 0 ? files.map((f) => [f, fs.readFileSync(f, 'utf8')]) : [['stdin', fs.readFileSync(0, 'utf8')]];
  if (json) {
    const report = await validateObjects(JSON.parse(inputs[0][1]));
    process.stdout.write(JSON.stringify(report));
    return 0;
  }
  const entries = inputs.flatMap(([source, text]) =>
    yaml
      .loadAll(text, undefined, { filename: source })
      .filter((d) => d !== null && d !== undefined)
      .flatMap((d) => (d.kind === 'List' && Array.isArray(d.items) ? d.items : [d]))
      .map((object) => ({ source, object })),
  );
  const report = await validateObjects(entries);
  const unknown = report.unknown.filter((u) => !allowed.has(`${u.apiVersion}/${u.kind}`));
  for (const p of report.invalid) process.stderr.write(`invalid: ${describeProblem(p)}\n`);
  for (const u of unknown) process.stderr.write(`no schema (allow it with --allow-kind ${u.apiVersion}/${u.kind}): ${describeProblem(u)}\n`);
  const bad = report.invalid.length + unknown.length;
  process.stdout.write(`${report.checked} objects checked, ${report.invalid.length} invalid, ${unknown.length} without a schema\n`);
  return bad > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`validate-k8s: ${e?.stack ?? e}\n`);
      process.exitCode = 2;
    },
  );
}
