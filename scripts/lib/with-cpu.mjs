#!/usr/bin/env node
// Runs a command, then writes the CPU seconds it used (user + system, its own and its descendants' that were waited
// for, as Linux counts them in /proc/self/stat) to the file named by $CPU_TIME_FILE. Used by scripts/test.mjs to
// tell, per step, work from waiting when steps share the machine. Exits with the command's status.
// Usage: CPU_TIME_FILE=out.txt node scripts/lib/with-cpu.mjs COMMAND [ARG ...]
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

/** CPU seconds of this process's finished children (NaN where /proc is missing). */
function childCpu() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return NaN;
  }
}

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('close', (code, signal) => {
  if (process.env.CPU_TIME_FILE) writeFileSync(process.env.CPU_TIME_FILE, String(childCpu()));
  process.exit(code ?? (signal ? 1 : 0));
});
