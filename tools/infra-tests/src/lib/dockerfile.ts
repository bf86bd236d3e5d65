import fs from 'node:fs';

export interface Instruction {
  /** Upper-case keyword: FROM, RUN, COPY, ... */
  keyword: string;
  /** Everything after the keyword, continuation lines joined with a space. */
  args: string;
  line: number;
}

export interface Stage {
  /** Image as written (`${NODE_IMAGE}`) and with global ARG defaults substituted. */
  from: string;
  fromResolved: string;
  name: string | undefined;
  instructions: Instruction[];
}

export interface Dockerfile {
  /** ARGs declared before the first FROM, with their defaults. */
  globalArgs: Record<string, string>;
  stages: Stage[];
  instructions: Instruction[];
}

/** Parses a Dockerfile into instructions and stages (comments dropped, `\` continuations joined). */
export function parseDockerfile(file: string): Dockerfile {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const instructions: Instruction[] = [];
  let buffer = '';
  let start = 0;
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (buffer === '' && (line === '' || line.startsWith('#'))) return;
    if (buffer !== '' && line.startsWith('#')) return;
    if (buffer === '') start = i + 1;
    if (line.endsWith('\\')) {
      buffer += `${line.slice(0, -1).trim()} `;
      return;
    }
    buffer += line;
    const m = /^(\S+)\s*(.*)$/s.exec(buffer.trim());
    if (m) instructions.push({ keyword: m[1].toUpperCase(), args: m[2].trim(), line: start });
    buffer = '';
  });

  const globalArgs: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const ins of instructions) {
    if (ins.keyword === 'FROM') {
      const m = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(ins.args);
      const from = m?.[1] ?? ins.args;
      const fromResolved = from.replace(/\$\{?(\w+)\}?/g, (_, v: string) => globalArgs[v] ?? '');
      stages.push({ from, fromResolved, name: m?.[2], instructions: [] });
    } else if (stages.length === 0) {
      if (ins.keyword === 'ARG') {
        const [k, ...v] = ins.args.split('=');
        globalArgs[k.trim()] = v
          .join('=')
          .trim()
          .replace(/^"(.*)"$/, '$1');
      }
    } else {
      stages[stages.length - 1].instructions.push(ins);
    }
  }
  return { globalArgs, stages, instructions };
}

/** The stages a stage is built FROM, nearest first (by stage name). */
export function stageAncestry(df: Dockerfile, stage: Stage): Stage[] {
  const chain: Stage[] = [stage];
  let cur = stage;
  for (;;) {
    const parent = df.stages.find((s) => s.name !== undefined && s.name === cur.from);
    if (!parent || chain.includes(parent)) return chain;
    chain.push(parent);
    cur = parent;
  }
}

/** Matches a path against .dockerignore lines (globs with * and **; `!` exceptions honoured). */
export function isIgnored(patterns: string[], file: string): boolean {
  let ignored = false;
  for (const raw of patterns) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const negate = line.startsWith('!');
    const pattern = (negate ? line.slice(1) : line).replace(/^\/+/, '').replace(/\/+$/, '');
    const re = new RegExp(
      `^${pattern
        .split(/(\*\*\/|\*\*|\*|\?)/)
        .map((part) =>
          part === '**/'
            ? '(?:.*/)?'
            : part === '**'
              ? '.*'
              : part === '*'
                ? '[^/]*'
                : part === '?'
                  ? '[^/]'
                  : part.replace(/[.+^${}()|[\]\\]/g, '\\$&'),
        )
        .join('')}(?:/.*)?$`,
    );
    if (re.test(file)) ignored = !negate;
  }
  return ignored;
}
