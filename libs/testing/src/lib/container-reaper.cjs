// The test infrastructure's reaper (test-containers.ts starts it, detached, one per test process
// that starts containers): it waits until its stdin closes, which happens when the test process
// has ended, however it ended, then removes the containers labelled with that process's id and the
// note that lets the process's later test files reuse them.
//
//   node container-reaper.cjs <label> <test process id> <state file>
'use strict';
const { rmSync } = require('node:fs');

const [label, pid, stateFile] = process.argv.slice(2);

async function reap() {
  rmSync(stateFile, { force: true });
  // The test process's environment came along: the same engine, found the same way.
  const { getContainerRuntimeClient } = require('testcontainers');
  const client = await getContainerRuntimeClient();
  const own = await client.container.dockerode.listContainers({
    all: true,
    filters: { label: [`${label}=${pid}`] },
  });
  await Promise.all(
    own.map((c) =>
      client.container
        .getById(c.Id)
        .remove({ force: true, v: true })
        .catch(() => undefined),
    ),
  );
}

let reaping = false;
function onParentGone() {
  if (reaping) return;
  reaping = true;
  reap().then(
    () => process.exit(0),
    () => process.exit(1),
  );
}
process.stdin.on('end', onParentGone);
process.stdin.on('close', onParentGone);
process.stdin.on('error', onParentGone);
process.stdin.resume();
