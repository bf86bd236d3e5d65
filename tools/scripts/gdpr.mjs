#!/usr/bin/env node
// `npm run gdpr -- verify <userId>`: after an account deletion, prints per service whether any trace
// of the member remains (every table and column of every service database, Redis keys under the
// deployment's prefix, the local photo storage). Exit 0: clean; 1: something remains; 2: bad usage;
// 3: a store could not be checked (and nothing was found in the others). docs/adr/0016-member-data.md
//
// Targets default to what `npm start` runs (DATABASE_URL's server with mate_<db> databases, or
// <DB>_DATABASE_URL per service; REDIS_URL; KEY_PREFIX; PHOTO_DIR), and options override them:
//   --database <db|service>=<url>   one service's database (repeatable), e.g. --database auth=postgres://…
//   --redis <url>  --redis-cluster-nodes <host:port,...>  --key-prefix <prefix>  --photo-dir <dir>  --json
import { SERVICES } from './lib/platform.mjs';
import { defaultTargets, formatReport, isMemberId, verifyMemberErased } from './lib/gdpr-verify.mjs';

const USAGE = `Usage: npm run gdpr -- verify <userId> [--database <db|service>=<url>]... [--redis <url>] [--redis-cluster-nodes <host:port,...>] [--key-prefix <prefix>] [--photo-dir <dir>] [--json]\n`;

function usage(problem) {
  process.stderr.write(`${problem ? `${problem}\n` : ''}${USAGE}`);
  process.exit(2);
}

function parse(argv) {
  const [command, userId, ...rest] = argv;
  if (command !== 'verify') usage(command ? `Unknown command: ${command}` : undefined);
  if (!isMemberId(userId)) usage(`Not a member id (UUID): ${userId ?? '(none)'}`);
  const targets = defaultTargets();
  let json = false;
  for (let i = 0; i < rest.length; i++) {
    const option = rest[i];
    const value = () => {
      const v = rest[++i];
      if (v === undefined || v === '') usage(`${option} needs a value`);
      return v;
    };
    switch (option) {
      case '--database': {
        const spec = value();
        const eq = spec.indexOf('=');
        const name = spec.slice(0, eq);
        const service = SERVICES.find((s) => s.db && (s.db === name || s.name === name));
        if (eq < 1 || !service) usage(`--database takes <db|service>=<url> of a service with a database: ${spec}`);
        targets.databases[service.name] = spec.slice(eq + 1);
        break;
      }
      case '--redis':
        targets.redis.url = value();
        break;
      case '--redis-cluster-nodes':
        targets.redis.clusterNodes = value();
        break;
      case '--key-prefix':
        targets.redis.prefix = value();
        break;
      case '--photo-dir':
        targets.photoDir = value();
        break;
      case '--json':
        json = true;
        break;
      default:
        usage(`Unknown option: ${option}`);
    }
  }
  return { userId, targets, json };
}

const { userId, targets, json } = parse(process.argv.slice(2));
const report = await verifyMemberErased(userId, targets);
process.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
process.exit(report.remains ? 1 : report.unchecked ? 3 : 0);
