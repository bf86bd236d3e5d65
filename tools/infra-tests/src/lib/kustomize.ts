/**
 * A small, strict re-implementation of what `kustomize build` does with the features this
 * repository uses, so the manifests can be checked where no kustomize binary exists:
 * resources (files and folders), configMapGenerator / secretGenerator (create, merge, replace),
 * patches (strategic merge incl. `$patch: delete`, JSON 6902 incl. `test`) with target selectors,
 * namespace, labels / commonLabels, commonAnnotations, images and replicas. Transformers run in
 * kustomize's order. Anything else in a kustomization.yaml is an error rather than silently
 * ignored, and so is a patch, image or replica entry that matches nothing.
 * Differences from kustomize: generated names carry no hash suffix, generated Secret values stay
 * in plain `stringData`, and name references are not rewritten (names never change here).
 */
import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { loadYamlDocuments } from './workspace';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface Metadata {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface K8sResource {
  apiVersion: string;
  kind: string;
  metadata: Metadata;
  [key: string]: unknown;
}

export interface Rendered {
  dir: string;
  resources: K8sResource[];
  /** Every file the walk read: kustomizations, resources, patches, generator sources. */
  files: Set<string>;
  /** `Kind/name` of resources removed by a `$patch: delete` (expected to exist outside git). */
  deleted: Set<string>;
}

export class KustomizeError extends Error {}

const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

const SUPPORTED_FIELDS = new Set([
  'apiVersion',
  'kind',
  'metadata',
  'resources',
  'namespace',
  'labels',
  'commonLabels',
  'commonAnnotations',
  'images',
  'replicas',
  'patches',
  'patchesStrategicMerge',
  'patchesJson6902',
  'configMapGenerator',
  'secretGenerator',
  'generatorOptions',
]);

const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'PersistentVolume',
  'StorageClass',
  'IngressClass',
  'PriorityClass',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
]);

const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job']);

interface Kustomization {
  resources?: string[];
  namespace?: string;
  labels?: Array<{ pairs: Record<string, string>; includeSelectors?: boolean; includeTemplates?: boolean }>;
  commonLabels?: Record<string, string>;
  commonAnnotations?: Record<string, string>;
  images?: Array<{ name: string; newName?: string; newTag?: string; digest?: string }>;
  replicas?: Array<{ name: string; count: number }>;
  patches?: PatchEntry[];
  patchesStrategicMerge?: string[];
  patchesJson6902?: PatchEntry[];
  configMapGenerator?: GeneratorEntry[];
  secretGenerator?: GeneratorEntry[];
  generatorOptions?: { labels?: Record<string, string>; annotations?: Record<string, string> };
}

export interface PatchTarget {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  labelSelector?: string;
  annotationSelector?: string;
}

interface PatchEntry {
  path?: string;
  patch?: string;
  target?: PatchTarget;
}

interface GeneratorEntry {
  name: string;
  behavior?: 'create' | 'merge' | 'replace';
  literals?: string[];
  envs?: string[];
  files?: string[];
  type?: string;
  options?: {
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    disableNameSuffixHash?: boolean;
  };
}

interface JsonPatchOp {
  op: 'add' | 'remove' | 'replace' | 'test' | 'move' | 'copy';
  path: string;
  value?: Json;
  from?: string;
}

export const idOf = (r: { kind: string; metadata: { name: string } }) => `${r.kind}/${r.metadata.name}`;

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

export function findKustomizationFile(dir: string): string | undefined {
  return KUSTOMIZATION_FILES.map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
}

/** Renders the kustomization in `dir` (a folder holding kustomization.yaml). */
export function render(dir: string): Rendered {
  const kfile = findKustomizationFile(dir);
  if (!kfile) throw new KustomizeError(`${dir}: no kustomization.yaml`);
  const k = yaml.load(fs.readFileSync(kfile, 'utf8'), { filename: kfile }) as Kustomization | null;
  if (k === null || typeof k !== 'object' || Array.isArray(k))
    throw new KustomizeError(`${kfile}: not a mapping`);
  for (const field of Object.keys(k)) {
    if (!SUPPORTED_FIELDS.has(field)) {
      throw new KustomizeError(
        `${kfile}: field "${field}" is not supported by tools/infra-tests (extend kustomize.ts)`,
      );
    }
  }
  const out: Rendered = { dir, resources: [], files: new Set([kfile]), deleted: new Set() };
  const add = (r: K8sResource, source: string) => {
    if (out.resources.some((x) => idOf(x) === idOf(r))) {
      throw new KustomizeError(`${source}: ${idOf(r)} is defined twice`);
    }
    out.resources.push(r);
  };

  for (const entry of k.resources ?? []) {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry) || entry.startsWith('github.com/')) {
      throw new KustomizeError(`${kfile}: remote resource ${entry} (offline builds only)`);
    }
    const abs = path.resolve(dir, entry);
    if (!fs.existsSync(abs)) throw new KustomizeError(`${kfile}: resource ${entry} does not exist`);
    if (fs.statSync(abs).isDirectory()) {
      const sub = render(abs);
      sub.resources.forEach((r) => add(r, abs));
      sub.files.forEach((f) => out.files.add(f));
      sub.deleted.forEach((d) => out.deleted.add(d));
    } else {
      out.files.add(abs);
      for (const doc of loadYamlDocuments(abs)) add(asResource(doc, abs), abs);
    }
  }

  runGenerators(k, dir, kfile, out, add);

  // Transformers, in kustomize's order.
  for (const p of k.patchesStrategicMerge ?? []) applyPatch({ path: p }, dir, kfile, out);
  for (const p of k.patches ?? []) applyPatch(p, dir, kfile, out);
  if (k.namespace) {
    for (const r of out.resources) if (!CLUSTER_SCOPED.has(r.kind)) r.metadata.namespace = k.namespace;
  }
  if (k.commonLabels) applyLabels(out.resources, k.commonLabels, true, true);
  for (const l of k.labels ?? [])
    applyLabels(out.resources, l.pairs, l.includeSelectors ?? false, l.includeTemplates ?? false);
  if (k.commonAnnotations) {
    for (const r of out.resources)
      r.metadata.annotations = { ...r.metadata.annotations, ...k.commonAnnotations };
  }
  for (const p of k.patchesJson6902 ?? []) applyPatch(p, dir, kfile, out);
  for (const rep of k.replicas ?? []) {
    const hits = out.resources.filter(
      (r) => ['Deployment', 'StatefulSet', 'ReplicaSet'].includes(r.kind) && r.metadata.name === rep.name,
    );
    if (hits.length === 0)
      throw new KustomizeError(`${kfile}: replicas entry ${rep.name} matches no workload`);
    for (const r of hits) (r.spec as JsonObject).replicas = rep.count;
  }
  for (const image of k.images ?? []) {
    let hits = 0;
    for (const c of allContainers(out.resources)) {
      if (imageName(c.container.image ?? '') === image.name) {
        c.container.image = replaceImage(c.container.image ?? '', image);
        hits += 1;
      }
    }
    if (hits === 0) throw new KustomizeError(`${kfile}: images entry ${image.name} matches no container`);
  }
  return out;
}

function asResource(doc: unknown, source: string): K8sResource {
  if (!isObject(doc) || typeof doc.kind !== 'string' || typeof doc.apiVersion !== 'string') {
    throw new KustomizeError(`${source}: a document without apiVersion/kind`);
  }
  const meta = doc.metadata;
  if (!isObject(meta) || typeof meta.name !== 'string' || meta.name === '') {
    throw new KustomizeError(`${source}: ${doc.kind} without metadata.name`);
  }
  return doc as unknown as K8sResource;
}

function insideRoot(dir: string, file: string, kfile: string): string {
  const abs = path.resolve(dir, file);
  if (abs !== dir && !abs.startsWith(dir + path.sep)) {
    // kustomize's default load restrictor refuses files outside the kustomization's folder.
    throw new KustomizeError(`${kfile}: ${file} is outside ${dir} (kustomize refuses it)`);
  }
  if (!fs.existsSync(abs)) throw new KustomizeError(`${kfile}: ${file} does not exist`);
  return abs;
}

function runGenerators(
  k: Kustomization,
  dir: string,
  kfile: string,
  out: Rendered,
  add: (r: K8sResource, source: string) => void,
) {
  const kinds: Array<['ConfigMap' | 'Secret', GeneratorEntry[] | undefined]> = [
    ['ConfigMap', k.configMapGenerator],
    ['Secret', k.secretGenerator],
  ];
  for (const [kind, entries] of kinds) {
    for (const g of entries ?? []) {
      if (!g.name) throw new KustomizeError(`${kfile}: a ${kind} generator without name`);
      const data: Record<string, string> = {};
      for (const lit of g.literals ?? []) {
        const eq = lit.indexOf('=');
        if (eq <= 0) throw new KustomizeError(`${kfile}: literal "${lit}" is not KEY=VALUE`);
        data[lit.slice(0, eq)] = lit.slice(eq + 1);
      }
      for (const envFile of g.envs ?? []) {
        const abs = insideRoot(dir, envFile, kfile);
        out.files.add(abs);
        for (const line of fs.readFileSync(abs, 'utf8').split('\n')) {
          const t = line.trim();
          if (!t || t.startsWith('#')) continue;
          const eq = t.indexOf('=');
          if (eq <= 0) throw new KustomizeError(`${abs}: "${t}" is not KEY=VALUE`);
          data[t.slice(0, eq)] = t.slice(eq + 1);
        }
      }
      for (const spec of g.files ?? []) {
        const eq = spec.indexOf('=');
        const [key, file] = eq > 0 ? [spec.slice(0, eq), spec.slice(eq + 1)] : [path.basename(spec), spec];
        const abs = insideRoot(dir, file, kfile);
        out.files.add(abs);
        data[key] = fs.readFileSync(abs, 'utf8');
      }
      const labels = { ...k.generatorOptions?.labels, ...g.options?.labels };
      const annotations = { ...k.generatorOptions?.annotations, ...g.options?.annotations };
      const field = kind === 'ConfigMap' ? 'data' : 'stringData';
      const behavior = g.behavior ?? 'create';
      if (behavior === 'create') {
        const r: K8sResource = { apiVersion: 'v1', kind, metadata: { name: g.name }, [field]: data };
        if (Object.keys(labels).length) r.metadata.labels = labels;
        if (Object.keys(annotations).length) r.metadata.annotations = annotations;
        if (kind === 'Secret') r.type = g.type ?? 'Opaque';
        add(r, kfile);
        continue;
      }
      const existing = out.resources.find((r) => r.kind === kind && r.metadata.name === g.name);
      if (!existing)
        throw new KustomizeError(`${kfile}: ${behavior} of ${kind}/${g.name}, which does not exist`);
      if (behavior === 'replace') {
        delete existing.data;
        delete existing.stringData;
        existing[field] = data;
      } else {
        const current = {
          ...(existing.data as Record<string, string> | undefined),
          ...(existing.stringData as Record<string, string> | undefined),
        };
        delete existing.data;
        delete existing.stringData;
        existing[field] = { ...current, ...data };
      }
      existing.metadata.labels = { ...existing.metadata.labels, ...labels };
    }
  }
}

// --- selectors ------------------------------------------------------------------------------

/** Kubernetes label selector: `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x,y)`, `a`, `!a`. */
export function matchesSelector(selector: string, labels: Record<string, string> = {}): boolean {
  const terms = selector
    .split(/,(?![^(]*\))/)
    .map((t) => t.trim())
    .filter(Boolean);
  return terms.every((term) => {
    let m = /^([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(term);
    if (m) {
      const values = m[3].split(',').map((v) => v.trim());
      const has = m[1] in labels && values.includes(labels[m[1]]);
      return m[2] === 'in' ? has : !has;
    }
    m = /^([\w./-]+)\s*(==|=|!=)\s*([\w./-]*)$/.exec(term);
    if (m) return m[2] === '!=' ? labels[m[1]] !== m[3] : labels[m[1]] === m[3];
    m = /^(!?)([\w./-]+)$/.exec(term);
    if (m) return m[1] === '!' ? !(m[2] in labels) : m[2] in labels;
    throw new KustomizeError(`unsupported selector term "${term}"`);
  });
}

export function selectTargets(resources: K8sResource[], t: PatchTarget): K8sResource[] {
  return resources.filter((r) => {
    const [group, version] = r.apiVersion.includes('/') ? r.apiVersion.split('/') : ['', r.apiVersion];
    if (t.kind && r.kind !== t.kind) return false;
    if (t.group !== undefined && t.group !== group) return false;
    if (t.version && t.version !== version) return false;
    if (t.name && !new RegExp(`^(?:${t.name})$`).test(r.metadata.name)) return false;
    if (t.namespace && r.metadata.namespace !== t.namespace) return false;
    if (t.labelSelector && !matchesSelector(t.labelSelector, r.metadata.labels)) return false;
    if (t.annotationSelector && !matchesSelector(t.annotationSelector, r.metadata.annotations)) return false;
    return true;
  });
}

// --- patches --------------------------------------------------------------------------------

function applyPatch(entry: PatchEntry | string, dir: string, kfile: string, out: Rendered) {
  const e: PatchEntry = typeof entry === 'string' ? { patch: entry } : entry;
  let text: string;
  let where: string;
  if (e.path) {
    const abs = insideRoot(dir, e.path, kfile);
    out.files.add(abs);
    text = fs.readFileSync(abs, 'utf8');
    where = abs;
  } else if (e.patch) {
    text = e.patch;
    where = `${kfile} (inline patch${e.target ? ` for ${JSON.stringify(e.target)}` : ''})`;
  } else {
    throw new KustomizeError(`${kfile}: a patch without path or patch`);
  }
  const docs = yaml
    .loadAll(text, undefined, { filename: where })
    .filter((d) => d !== null && d !== undefined);
  if (docs.length === 0) throw new KustomizeError(`${where}: empty patch`);

  if (Array.isArray(docs[0])) {
    if (!e.target) throw new KustomizeError(`${where}: a JSON 6902 patch needs a target`);
    const targets = selectTargets(out.resources, e.target);
    if (targets.length === 0) throw new KustomizeError(`${where}: target matches no resource`);
    for (const r of targets) applyJsonPatch(r as unknown as JsonObject, docs[0] as JsonPatchOp[], where);
    return;
  }
  for (const doc of docs) {
    if (!isObject(doc)) throw new KustomizeError(`${where}: a patch document is not a mapping`);
    let targets: K8sResource[];
    if (e.target) {
      targets = selectTargets(out.resources, e.target);
    } else {
      const meta = doc.metadata;
      if (typeof doc.kind !== 'string' || !isObject(meta) || typeof meta.name !== 'string') {
        throw new KustomizeError(`${where}: a patch without target needs kind and metadata.name`);
      }
      targets = out.resources.filter((r) => r.kind === doc.kind && r.metadata.name === meta.name);
    }
    if (targets.length === 0) throw new KustomizeError(`${where}: patch matches no resource`);
    if (doc.$patch === 'delete') {
      for (const r of targets) {
        out.deleted.add(idOf(r));
        out.resources.splice(out.resources.indexOf(r), 1);
      }
      continue;
    }
    const body = clone(doc);
    delete body.apiVersion;
    delete body.kind;
    if (isObject(body.metadata)) {
      // With a target, the patch's own name is a placeholder (kustomize overrides it).
      delete body.metadata.name;
      if (Object.keys(body.metadata).length === 0) delete body.metadata;
    }
    for (const r of targets) strategicMerge(r as unknown as JsonObject, body);
  }
}

/** The list merge keys of the Kubernetes types patched here. */
function mergeKeyFor(field: string, items: Json[]): string | undefined {
  const first = items.find(isObject);
  if (!first) return undefined;
  if (field === 'ports')
    return 'containerPort' in first ? 'containerPort' : 'port' in first ? 'port' : undefined;
  if (field === 'volumeMounts') return 'mountPath';
  if (
    [
      'containers',
      'initContainers',
      'ephemeralContainers',
      'env',
      'volumes',
      'imagePullSecrets',
      'volumeClaimTemplates',
    ].includes(field)
  ) {
    return field === 'volumeClaimTemplates' ? undefined : 'name';
  }
  return undefined;
}

export function strategicMerge(target: JsonObject, patch: JsonObject): JsonObject {
  if (patch.$patch === 'replace') {
    for (const key of Object.keys(target)) delete target[key];
    const rest = { ...patch };
    delete rest.$patch;
    Object.assign(target, clone(rest));
    return target;
  }
  for (const [key, value] of Object.entries(patch)) {
    if (key === '$patch') continue;
    if (value === null) {
      delete target[key];
    } else if (isObject(value) && isObject(target[key])) {
      strategicMerge(target[key] as JsonObject, value);
    } else if (Array.isArray(value) && Array.isArray(target[key])) {
      const mergeKey = mergeKeyFor(key, value);
      if (!mergeKey) {
        target[key] = clone(value);
        continue;
      }
      const list = target[key] as Json[];
      for (const item of value) {
        if (!isObject(item)) continue;
        const idx = list.findIndex((x) => isObject(x) && x[mergeKey] === item[mergeKey]);
        if (item.$patch === 'delete') {
          if (idx >= 0) list.splice(idx, 1);
        } else if (idx >= 0) {
          strategicMerge(list[idx] as JsonObject, item);
        } else {
          list.push(clone(item));
        }
      }
    } else {
      target[key] = clone(value);
    }
  }
  return target;
}

function pointer(p: string): string[] {
  if (p === '') return [];
  if (!p.startsWith('/')) throw new KustomizeError(`bad JSON pointer ${p}`);
  return p
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(doc: JsonObject, p: string, where: string): { parent: JsonObject | Json[]; key: string } {
  const parts = pointer(p);
  const key = parts.pop();
  if (key === undefined) throw new KustomizeError(`${where}: cannot patch the document root`);
  let cur: Json = doc;
  for (const part of parts) {
    const next: Json | undefined = Array.isArray(cur)
      ? cur[Number(part)]
      : isObject(cur)
        ? cur[part]
        : undefined;
    if (next === undefined) throw new KustomizeError(`${where}: path ${p} does not exist`);
    cur = next;
  }
  if (!isObject(cur) && !Array.isArray(cur)) throw new KustomizeError(`${where}: path ${p} does not exist`);
  return { parent: cur, key };
}

function getAt(doc: JsonObject, p: string, where: string): Json {
  const { parent, key } = parentOf(doc, p, where);
  const v = Array.isArray(parent) ? parent[Number(key)] : parent[key];
  if (v === undefined) throw new KustomizeError(`${where}: path ${p} does not exist`);
  return v;
}

export function applyJsonPatch(doc: JsonObject, ops: JsonPatchOp[], where = 'patch'): JsonObject {
  for (const op of ops) {
    switch (op.op) {
      case 'test': {
        const actual = getAt(doc, op.path, where);
        if (JSON.stringify(actual) !== JSON.stringify(op.value)) {
          throw new KustomizeError(
            `${where}: test failed at ${op.path}: ${JSON.stringify(actual)} != ${JSON.stringify(op.value)}`,
          );
        }
        break;
      }
      case 'add':
      case 'replace': {
        const { parent, key } = parentOf(doc, op.path, where);
        const value = clone(op.value ?? null);
        if (Array.isArray(parent)) {
          const idx = key === '-' ? parent.length : Number(key);
          if (op.op === 'add') parent.splice(idx, 0, value);
          else if (idx < parent.length) parent[idx] = value;
          else throw new KustomizeError(`${where}: replace of missing ${op.path}`);
        } else {
          if (op.op === 'replace' && !(key in parent))
            throw new KustomizeError(`${where}: replace of missing ${op.path}`);
          parent[key] = value;
        }
        break;
      }
      case 'remove': {
        const { parent, key } = parentOf(doc, op.path, where);
        if (Array.isArray(parent)) parent.splice(Number(key), 1);
        else if (key in parent) delete parent[key];
        else throw new KustomizeError(`${where}: remove of missing ${op.path}`);
        break;
      }
      default:
        throw new KustomizeError(`${where}: JSON patch op "${op.op}" is not supported here`);
    }
  }
  return doc;
}

// --- labels, images -------------------------------------------------------------------------

function applyLabels(
  resources: K8sResource[],
  pairs: Record<string, string>,
  selectors: boolean,
  templates: boolean,
) {
  for (const r of resources) {
    r.metadata.labels = { ...r.metadata.labels, ...pairs };
    const spec = r.spec as JsonObject | undefined;
    if (!spec) continue;
    if (WORKLOAD_KINDS.has(r.kind) && (selectors || templates) && isObject(spec.template)) {
      const t = spec.template as JsonObject;
      const meta = (isObject(t.metadata) ? t.metadata : (t.metadata = {})) as JsonObject;
      meta.labels = { ...(meta.labels as Record<string, string> | undefined), ...pairs };
    }
    if (!selectors) continue;
    if (WORKLOAD_KINDS.has(r.kind) && r.kind !== 'Job' && isObject(spec.selector)) {
      const sel = spec.selector as JsonObject;
      sel.matchLabels = { ...(sel.matchLabels as Record<string, string> | undefined), ...pairs };
    }
    if (r.kind === 'Service' && isObject(spec.selector)) spec.selector = { ...spec.selector, ...pairs };
  }
}

export interface Container {
  name: string;
  image?: string;
  args?: string[];
  command?: string[];
  ports?: Array<{ name?: string; containerPort: number }>;
  env?: Array<{
    name: string;
    value?: string;
    valueFrom?: {
      secretKeyRef?: { name: string; key: string; optional?: boolean };
      configMapKeyRef?: { name: string; key: string };
    };
  }>;
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: Record<string, string | number>; limits?: Record<string, string | number> };
  securityContext?: SecurityContext;
}

export interface Probe {
  httpGet?: { path: string; port: string | number };
  exec?: { command: string[] };
  tcpSocket?: { port: string | number };
}

export interface SecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  securityContext?: SecurityContext;
  volumes?: Array<{ name: string; configMap?: { name: string }; secret?: { secretName: string } }>;
}

export interface PodTemplate {
  metadata?: { labels?: Record<string, string> };
  spec: PodSpec;
}

/** The pod template of a workload (Deployment, StatefulSet, Job, CronJob ...). */
export function podTemplate(r: K8sResource): PodTemplate | undefined {
  const spec = r.spec as
    | { template?: PodTemplate; jobTemplate?: { spec?: { template?: PodTemplate } } }
    | undefined;
  if (r.kind === 'CronJob') return spec?.jobTemplate?.spec?.template;
  return spec?.template?.spec ? spec.template : undefined;
}

export function allContainers(
  resources: K8sResource[],
): Array<{ resource: K8sResource; container: Container; init: boolean }> {
  return resources.flatMap((resource) => {
    const t = podTemplate(resource);
    if (!t) return [];
    return [
      ...(t.spec.initContainers ?? []).map((container) => ({ resource, container, init: true })),
      ...(t.spec.containers ?? []).map((container) => ({ resource, container, init: false })),
    ];
  });
}

/** `registry:5000/mate/web:1.2@sha256:..` -> `registry:5000/mate/web`. */
export function imageName(image: string): string {
  const noDigest = image.split('@')[0];
  const colon = noDigest.lastIndexOf(':');
  return colon > noDigest.lastIndexOf('/') ? noDigest.slice(0, colon) : noDigest;
}

export function imageTag(image: string): string | undefined {
  const [noDigest, digest] = image.split('@');
  if (digest) return `@${digest}`;
  const colon = noDigest.lastIndexOf(':');
  return colon > noDigest.lastIndexOf('/') ? noDigest.slice(colon + 1) : undefined;
}

function replaceImage(image: string, entry: { newName?: string; newTag?: string; digest?: string }): string {
  const name = entry.newName ?? imageName(image);
  if (entry.digest) return `${name}@${entry.digest}`;
  if (entry.newTag) return `${name}:${entry.newTag}`;
  const tag = imageTag(image);
  return tag ? (tag.startsWith('@') ? `${name}${tag}` : `${name}:${tag}`) : name;
}
