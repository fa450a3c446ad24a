#!/usr/bin/env node
// `npm run test:skills`: every skill under docs/skills/ followed word for word in a scratch project, on the real
// framework (the vendored @pikku packages).
//
// For each skill (or the ones named: `node scripts/skills-run.mjs http queue`):
// 1. Its prerequisites (the skills its Prerequisites section links to, except an item starting with "Optional")
//    run first, in order, in the same scratch project. A project state is kept after every skill, so a chain
//    shared by several skills (project-setup > functions > http ...) runs once and is copied from there.
// 2. Then the page's steps, in the page's order, as the site renders them (scripts/lib/skills.mjs):
//    - `npm install name@x.y.z ...`: the package is linked into the project's node_modules from the shared install
//      (below) and recorded in package.json, as npm would. A package the shared install does not hold at that
//      exact version fails the step, naming it.
//    - a file fence (`title=` or `file=`, filled from the to-do app like the site does): written; JSON merged into
//      the file when it exists (the pages say "merge"/"add this field"), a line the prose says to add appended.
//    - a shell line: run by bash in the project, exported variables kept for the later lines. `localhost:3000`
//      (and the MCP server's 3001) become free ports, given to the app through PORT and MCP_PORT, which its config
//      reads, so runs do not collide with anything else on the machine.
//    - a server or worker the page leaves running (`npm start`, `npx tsx src/runtimes/...`): started in the
//      background, waited for (its port open, or its "running" log line), stopped when the skill ends.
//    - `docker run` of Redis or PostgreSQL: the same server started locally instead (Debian's redis-server on the
//      page's port 6379; PostgreSQL as the behaviour suite starts it, on a free port, with the page's database);
//      `docker exec` lines run the same client (redis-cli, psql) against it.
//    - wscat and the MCP Inspector, which a person drives: their checks drive the same protocol with the `ws`
//      package and the MCP SDK client.
//    - a step that needs a cloud account (deploy, login, platform secrets): not run; printed as where the run stops.
//    - an install of a package that cannot exist on this machine (UNINSTALLABLE_HERE: @pikku/uws and
//      @pikku/uws-handler need uWebSockets.js, published on GitHub only): the run stops there, printing the reason
//      and every step it does not run; the skill passes only as far as that, and the summary says so.
//    - Yarn (the yarn-workspace skill): `yarn install` is preceded by scripts/lib/yarn-vendor.mjs, which maps the
//      @pikku packages to the tarballs through `resolutions`; Corepack's shims go to a folder of the run, and it
//      takes Yarn from the npm registry (COREPACK_NPM_REGISTRY; this machine does not reach repo.yarnpkg.com).
//    - each "Verify it worked" item: a check in scripts/skills-checks.mjs, matched by its text. An item with no
//      check fails the run, so a new claim on a page needs a check.
// The shared install: one npm project in the temporary folder (pikku-skills-deps-<hash>) whose package.json holds
// every package every skill installs, at the page's exact version. @pikku packages come from vendor/pikku (the
// registry stops at core 0.12.84), by `file:` specs plus npm `overrides` for the ones other packages depend on;
// a skill that pins an @pikku version other than the vendored one fails its install step. Everything else comes
// from the registry at the page's version; a version the registry does not have is left out and fails the steps
// that install it. The install is reused while that package.json is unchanged.
//
// Prints every step with ok/FAIL and its time; exits 1 if any skill failed. Needs Node 24, curl, openssl,
// redis-server and PostgreSQL (as the behaviour suite).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  appendFileSync,
  statSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './lib/content.mjs';
import { parseSkill, parseInstall, runOrder, writeMode, mergeJSON } from './lib/skills.mjs';
import { VENDOR, vendorManifest } from './app.mjs';
import { CHECKS, SERVED_BY } from './skills-checks.mjs';

const skillNames = () => {
  const src = readFileSync(join(ROOT, 'src', 'data', 'skills.ts'), 'utf8');
  return [...src.slice(src.indexOf('skillNames')).matchAll(/^\s*'([\w-]+)',$/gm)].map((m) => m[1]);
};

// ---------------------------------------------------------------------------------------------------------------
// The shared install

/** The packages the skills install: Map name -> { version, skills: [..] }, and the conflicts between skills. */
export function collectInstalls(skills) {
  const wanted = new Map();
  const problems = [];
  for (const skill of skills)
    for (const step of skill.steps.filter((s) => s.kind === 'install'))
      for (const p of parseInstall(step.line).packages) {
        if (!p.name) continue;
        const seen = wanted.get(p.name);
        if (seen && seen.version !== p.version)
          problems.push(`${skill.name} installs ${p.arg}, ${seen.skills[0]} installs ${p.name}@${seen.version}`);
        else if (seen) seen.skills.push(skill.name);
        else wanted.set(p.name, { version: p.version, skills: [skill.name] });
      }
  return { wanted, problems };
}

/** Runs npm once for the whole set; a package npm cannot find is dropped and named. Returns { dir, missing }. */
function sharedInstall(wanted, log) {
  const vendored = new Map(vendorManifest().packages.map((p) => [p.name, p]));
  const missing = new Map();
  const dependencies = {};
  for (const [name, { version }] of [...wanted].sort(([a], [b]) => a.localeCompare(b))) {
    const v = vendored.get(name);
    if (v && v.version !== version) missing.set(name, `vendor/pikku has ${name}@${v.version}, not ${version}`);
    else if (v) dependencies[name] = `file:${join(VENDOR, v.file)}`;
    else dependencies[name] = version;
  }
  const overrides = Object.fromEntries([...vendored.values()].map((p) => [p.name, `file:${join(VENDOR, p.file)}`]));
  // What an earlier run found the registry lacks (name@version): not asked again.
  const knownMissing = join(tmpdir(), 'pikku-skills-registry-missing.json');
  const known = existsSync(knownMissing) ? JSON.parse(readFileSync(knownMissing, 'utf8')) : {};
  for (const [name, version] of Object.entries(dependencies))
    if (known[`${name}@${version}`]) {
      missing.set(name, known[`${name}@${version}`]);
      delete dependencies[name];
    }
  for (;;) {
    const pkg = { name: 'pikku-skills-deps', private: true, type: 'module', dependencies, overrides };
    const text = JSON.stringify(pkg, null, 2);
    const dir = join(tmpdir(), `pikku-skills-deps-${createHash('sha256').update(text).digest('hex').slice(0, 12)}`);
    if (existsSync(join(dir, '.complete'))) return { dir, missing };
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), text);
    log(`shared install: npm install of ${Object.keys(dependencies).length} packages in ${dir}`);
    const started = Date.now();
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dir,
      encoding: 'utf8',
    });
    const out = `${r.stdout}${r.stderr}`;
    if (r.status === 0) {
      writeFileSync(join(dir, '.complete'), '');
      log(`shared install: done (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      return { dir, missing };
    }
    const notFound =
      /No matching version found for ((?:@[^/\s]+\/)?[^@\s]+)@/.exec(out)?.[1] ??
      /404 Not Found - GET \S+\/((?:@[^/\s]+\/|@[^%\s]+%2f)?[^/\s]+)( -|$)/m.exec(out)?.[1]?.replace('%2f', '/');
    rmSync(dir, { recursive: true, force: true });
    if (notFound && dependencies[notFound]) {
      missing.set(notFound, `the registry has no ${notFound}@${dependencies[notFound]}`);
      known[`${notFound}@${dependencies[notFound]}`] = missing.get(notFound);
      writeFileSync(knownMissing, JSON.stringify(known, null, 2));
      delete dependencies[notFound];
      continue;
    }
    throw new Error(`the shared install failed:\n${out}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const portOpen = (port) =>
  new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls until fn() is truthy, or throws `message` after ms. */
export async function until(fn, ms, message) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(message);
    await sleep(100);
  }
}

const postgresBin = () => {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((d) => existsSync(join(root, d, 'bin', 'psql'))) : [];
  return majors.length ? join(root, majors.sort((a, b) => Number(b) - Number(a))[0], 'bin') : null;
};

/** Copies a project folder, without node_modules (each copy gets its own links). */
const copyProject = (from, to) =>
  cpSync(from, to, { recursive: true, filter: (src) => relative(from, src).split('/')[0] !== 'node_modules' });

/** The hash of a project's inputs to `pikku all`: everything but node_modules, .pikku and dist. */
function inputsHash(dir) {
  const h = createHash('sha256');
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      if (['node_modules', '.pikku', 'dist', '.yarn', '.wrangler'].includes(name)) continue;
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else h.update(relative(dir, p)).update('\0').update(readFileSync(p)).update('\0');
    }
  };
  walk(dir);
  return h.digest('hex');
}

/**
 * The corepack the yarn-workspace skill's `corepack enable` runs: the one Node.js 24 bundles when it does (the
 * registry's `node` package, which CI uses, does not), else the registry's corepack, installed once in the
 * temporary folder, as the page says to when corepack is not found.
 */
const COREPACK = (() => {
  const bundled = join(dirname(process.execPath), 'corepack');
  if (existsSync(bundled)) return bundled;
  return join(tmpdir(), 'pikku-skills-corepack', 'node_modules', '.bin', 'corepack');
})();
function ensureCorepack(log) {
  if (existsSync(COREPACK)) return;
  log('corepack: npm install corepack@0.36.0 (this Node.js has none of its own)');
  const prefix = join(tmpdir(), 'pikku-skills-corepack');
  const r = spawnSync('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', 'corepack@0.36.0'], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`installing corepack failed:\n${r.stdout}${r.stderr}`);
}

const PIKKU_ALL = /^(npm run pikku|npx pikku( all)?|yarn pikku)$/;

// ---------------------------------------------------------------------------------------------------------------
/** Variables by which tools (ci-info, which Yarn uses) tell a CI machine from a developer's. */
export const CI_MARKERS = ['CI', 'CONTINUOUS_INTEGRATION', 'BUILD_NUMBER', 'RUN_ID', 'BUILD_ID', 'GITHUB_ACTIONS'];

/**
 * The environment a reader's shell gives a recipe: without the npm_* variables of the `npm run` that started
 * this runner, and without CI markers, since a recipe is followed on a developer's machine and tools change
 * course on CI (Yarn refuses to create a lockfile there: YN0028).
 */
export function developerEnv(env) {
  const out = { ...env };
  for (const k of Object.keys(out))
    if ((k.startsWith('npm_') && k !== 'npm_config_update_notifier') || CI_MARKERS.includes(k)) delete out[k];
  return out;
}

// One project: the folder, its env, its running processes

/** The projects with processes or services running, stopped if the run is interrupted. */
const OPEN = new Set();

class Project {
  constructor(dir, deps) {
    this.dir = dir;
    this.deps = deps;
    this.env = null;
    this.procs = [];
    this.services = [];
    this.subs = [];
    this.pikkuHash = null;
  }

  async open() {
    OPEN.add(this);
    const pg = postgresBin();
    this.port = await freePort();
    this.mcpPort = await freePort();
    this.env = {
      ...process.env,
      PORT: String(this.port),
      MCP_PORT: String(this.mcpPort),
      PATH: [join(this.dir, 'node_modules', '.bin'), pg, process.env.PATH].filter(Boolean).join(':'),
      NO_COLOR: '1',
      FORCE_COLOR: '0',
      npm_config_update_notifier: 'false',
    };
    this.env = developerEnv(this.env);
    // The page's fixed ports, replaced by the free ones the app is given through PORT and MCP_PORT.
    this.wranglerPort = await freePort();
    const corepackBin = join(this.dir, '..', 'corepack-bin');
    this.env.PATH = `${corepackBin}:${this.env.PATH}`;
    // This machine reaches Yarn only through the npm registry (not repo.yarnpkg.com), and corepack cannot verify
    // the registry's signatures of Yarn's latest release, which it asks for first: take Yarn from the registry,
    // and start from the version corepack knows.
    // Without its trailing slash: corepack appends `/yarn/-/...`, and a registry may refuse the doubled slash (HTTP 400).
    this.env.COREPACK_NPM_REGISTRY = spawnSync('npm', ['config', 'get', 'registry'], {
      encoding: 'utf8',
    })
      .stdout.trim()
      .replace(/\/+$/, '');
    this.env.COREPACK_DEFAULT_TO_LATEST = '0';
    this.env.COREPACK_ENABLE_DOWNLOAD_PROMPT = '0';
    this.env.WRANGLER_SEND_METRICS = 'false';
    this.env.SLS_TELEMETRY_DISABLED = '1';
    this.env.SLS_NOTIFICATIONS_MODE = 'off';
    this.subs = [
      [/localhost:3000\b/g, `localhost:${this.port}`],
      [/127\.0\.0\.1:3001\b/g, `127.0.0.1:${this.mcpPort}`],
      // wrangler dev on a free port instead of its default 8787.
      [/localhost:8787\b/g, `localhost:${this.wranglerPort}`],
      [/^npx wrangler dev\b/, `npx wrangler dev --port ${this.wranglerPort}`],
      // Corepack's shims go to a folder of the run, on PATH, instead of next to the machine's node (see COREPACK).
      [/^corepack enable$/, `mkdir -p ${corepackBin} && ${COREPACK} enable --install-directory ${corepackBin}`],
      // Yarn resolves @pikku packages from the registry, which lacks these versions: `resolutions` maps each one to
      // its vendored tarball first, as the shared install's `overrides` do for npm.
      [/^yarn install$/, `node ${JSON.stringify(join(ROOT, 'scripts', 'lib', 'yarn-vendor.mjs'))} && yarn install`],
    ];
    this.linkInstalled();
  }

  /** The line with the page's fixed ports and container addresses replaced by this run's. */
  sub(line) {
    return this.subs.reduce((l, [re, to]) => l.replace(re, to), line);
  }

  /**
   * node_modules holds what npm's flat layout would give the packages the recipes so far installed (package.json
   * records them): each of them and everything it depends on, linked from the shared install. A package that only a
   * later recipe installs is not there.
   */
  linkInstalled() {
    const pkgPath = join(this.dir, 'package.json');
    const nm = join(this.dir, 'node_modules');
    rmSync(nm, { recursive: true, force: true });
    mkdirSync(join(nm, '.bin'), { recursive: true });
    this.linked = new Set();
    if (!existsSync(pkgPath)) return;
    const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
    for (const name of Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })) this.link(name);
  }

  /** Links a top-level package of the shared install and, as npm hoists them, the top-level packages it needs. */
  link(name, direct = true) {
    if (this.linked.has(name)) return true;
    const src = join(this.deps, 'node_modules', name);
    if (!existsSync(src)) return false;
    this.linked.add(name);
    const nm = join(this.dir, 'node_modules');
    const dest = join(nm, name);
    mkdirSync(dirname(dest), { recursive: true });
    symlinkSync(src, dest);
    const pkg = JSON.parse(readFileSync(join(src, 'package.json'), 'utf8'));
    // Only the project's own packages put commands in node_modules/.bin first; a dependency's bin comes after.
    const bins = typeof pkg.bin === 'string' ? { [pkg.name.split('/').pop()]: pkg.bin } : (pkg.bin ?? {});
    for (const [bin, file] of Object.entries(bins)) {
      const to = join(nm, '.bin', bin);
      if (direct) rmSync(to, { force: true });
      if (!existsSync(to)) symlinkSync(join(src, file), to);
    }
    const needs = { ...pkg.dependencies, ...pkg.optionalDependencies, ...pkg.peerDependencies };
    for (const dep of Object.keys(needs)) {
      // A copy nested in the package's own node_modules is the one it uses; the top-level one is someone else's.
      if (existsSync(join(src, 'node_modules', dep))) continue;
      this.link(dep, false);
    }
    return true;
  }

  /** Runs one line in bash with every assignment exported, and keeps the environment it leaves. */
  sh(line, { timeout = 300_000 } = {}) {
    const envFile = join(this.dir, '..', `.env-${process.pid}`);
    const script = `set -a\n${line}\n__rc=$?\nenv -0 > ${JSON.stringify(envFile)}\nexit $__rc\n`;
    const r = spawnSync('bash', ['-c', script], {
      cwd: this.dir,
      env: this.env,
      encoding: 'utf8',
      timeout,
      maxBuffer: 64 << 20,
    });
    if (existsSync(envFile)) {
      const env = {};
      for (const pair of readFileSync(envFile, 'utf8').split('\0').filter(Boolean)) {
        const i = pair.indexOf('=');
        env[pair.slice(0, i)] = pair.slice(i + 1);
      }
      for (const k of ['_', 'SHLVL', 'PWD', 'OLDPWD', '__rc']) delete env[k];
      this.env = env;
      rmSync(envFile, { force: true });
    }
    return {
      code: r.status ?? (r.error ? -1 : 1),
      stdout: r.stdout ?? '',
      stderr: r.stderr ?? '',
      output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? `\n${r.error.message}` : ''}`,
    };
  }

  /** Starts a line in the background; resolves once it is ready (its port open or its ready line logged). */
  async start(line, ready) {
    const proc = { line, log: '', exited: null, port: ready.port };
    proc.child = spawn('bash', ['-c', line], {
      cwd: this.dir,
      env: this.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proc.child.stdout.on('data', (d) => (proc.log += d));
    proc.child.stderr.on('data', (d) => (proc.log += d));
    proc.child.on('exit', (code, signal) => (proc.exited = { code, signal }));
    this.procs.push(proc);
    await until(
      async () => {
        if (proc.exited) throw new Error(`exited (code ${proc.exited.code}) before it was ready:\n${proc.log}`);
        return ready.port ? portOpen(ready.port) : ready.log.test(proc.log);
      },
      120_000,
      `not ready within 120 s (${ready.port ? `port ${ready.port}` : ready.log}):\n${proc.log}`,
    );
    return proc;
  }

  async stop(proc) {
    if (!proc.exited) {
      try {
        process.kill(-proc.child.pid, 'SIGTERM');
      } catch {}
      await until(() => proc.exited, 10_000, 'did not stop').catch(() => {
        try {
          process.kill(-proc.child.pid, 'SIGKILL');
        } catch {}
      });
    }
    // The shell can end before the server it started lets go of its port: a server started next on that port
    // would look ready at once, and the checks would reach the old one.
    if (proc.port) await until(async () => !(await portOpen(proc.port)), 10_000, `port ${proc.port} still open`);
    this.procs = this.procs.filter((p) => p !== proc);
  }

  async close() {
    for (const p of [...this.procs]) await this.stop(p);
    for (const s of this.services.splice(0)) await s.stop();
    OPEN.delete(this);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Steps

/** Packages no install on this machine can give, and why: a skill that installs one stops there. */
export const UNINSTALLABLE_HERE = new Map(
  ['@pikku/uws', '@pikku/uws-handler', 'uWebSockets.js'].map((name) => [
    name,
    'needs uWebSockets.js, which is published on GitHub only (not on the npm registry, not vendored), and this machine reaches no GitHub',
  ]),
);

/** Thrown by a step the machine cannot run at all; the rest of the skill is not run and nothing fails. */
class MachineStop extends Error {}

/** Records an install as npm does: linked from the shared install, saved in package.json with a ^range. */
function install(project, line, missing) {
  const { dev, packages } = parseInstall(line);
  const unavailable = packages.filter((p) => p.name && UNINSTALLABLE_HERE.has(p.name));
  if (unavailable.length)
    throw new MachineStop(unavailable.map((p) => `${p.arg}: ${UNINSTALLABLE_HERE.get(p.name)}`).join('\n'));
  const problems = [];
  const pkgPath = join(project.dir, 'package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
  for (const p of packages) {
    if (!p.name) {
      problems.push(`${p.arg}: not a registry package at an exact version; the runner installs only those`);
      continue;
    }
    if (missing.has(p.name)) {
      problems.push(`${p.arg}: ${missing.get(p.name)}`);
      continue;
    }
    const installed = JSON.parse(
      readFileSync(join(project.deps, 'node_modules', p.name, 'package.json'), 'utf8'),
    ).version;
    if (installed !== p.version) {
      problems.push(`${p.arg}: the shared install holds ${installed}`);
      continue;
    }
    const key = dev ? 'devDependencies' : 'dependencies';
    const other = dev ? 'dependencies' : 'devDependencies';
    if (pkg[other]?.[p.name]) delete pkg[other][p.name];
    pkg[key] = { ...pkg[key], [p.name]: `^${p.version}` };
    project.link(p.name);
  }
  writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
  if (problems.length) throw new Error(problems.join('\n'));
  return `${packages.length} package(s) from the shared install`;
}

function writeFile(project, step) {
  const path = join(project.dir, step.path);
  const mode = writeMode(step.fence, existsSync(path));
  mkdirSync(dirname(path), { recursive: true });
  const code = step.code.endsWith('\n') ? step.code : `${step.code}\n`;
  if (mode === 'merge')
    writeFileSync(
      path,
      `${JSON.stringify(mergeJSON(JSON.parse(readFileSync(path, 'utf8')), JSON.parse(code)), null, 2)}\n`,
    );
  else if (mode === 'append') appendFileSync(path, code);
  else writeFileSync(path, code);
  return mode === 'write' ? 'written' : mode === 'merge' ? 'merged into the file' : 'appended';
}

/**
 * The behaviour suite's service helpers (examples/todo-app/tests/behaviour/harness/services.ts), loaded through the
 * app's own tsx: the harness imports its siblings as `./x.js`, which Node's type stripping alone does not map to `x.ts`.
 */
export async function loadServicesHarness() {
  const app = join(ROOT, 'examples', 'todo-app');
  const { tsImport } = await import(createRequire(join(app, 'package.json')).resolve('tsx/esm/api'));
  return tsImport(pathToFileURL(join(app, 'tests', 'behaviour', 'harness', 'services.ts')).href, import.meta.url);
}

/** What a `docker` line of a page becomes here. */
async function docker(project, line) {
  if (/^docker run\b.*\bredis:/.test(line)) {
    const port = Number(/-p (\d+):6379/.exec(line)?.[1] ?? 6379);
    if (await portOpen(port)) throw new Error(`port ${port}, which the page uses for Redis, is taken on this machine`);
    const dir = mkdtempSync(join(tmpdir(), 'skills-redis-'));
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    project.services.push({
      stop: async () => {
        child.kill('SIGTERM');
        await until(() => child.exitCode !== null || child.signalCode !== null, 10_000, 'redis did not stop').catch(
          () => {},
        );
        rmSync(dir, { recursive: true, force: true });
      },
    });
    await until(() => portOpen(port), 15_000, 'redis-server did not start');
    project.subs.push([/^docker exec \S+ redis-cli\b/, `redis-cli -p ${port}`]);
    return `redis-server on 127.0.0.1:${port} (for the page's container)`;
  }
  if (/^docker run\b.*\bpostgres:/.test(line)) {
    const { startPostgres } = await loadServicesHarness();
    const pg = await startPostgres();
    project.services.push(pg);
    const db = /POSTGRES_DB=(\w+)/.exec(line)?.[1] ?? 'postgres';
    const hostPort = /-p (\d+):5432/.exec(line)?.[1] ?? '5432';
    const r = spawnSync(
      'psql',
      ['-h', '127.0.0.1', '-p', String(pg.port), '-U', 'postgres', '-c', `create database ${db}`],
      {
        env: project.env,
        encoding: 'utf8',
      },
    );
    if (r.status !== 0) throw new Error(`create database ${db}: ${r.stderr}`);
    project.subs.push([new RegExp(`localhost:${hostPort}\\b`, 'g'), `127.0.0.1:${pg.port}`]);
    project.subs.push([/^docker exec \S+ psql\b/, `psql -h 127.0.0.1 -p ${pg.port}`]);
    return `PostgreSQL on 127.0.0.1:${pg.port}, database ${db} (for the page's container)`;
  }
  throw new Error('a docker command the runner does not know how to stand in for');
}

/** What a background line waits for before the next step runs. */
function readiness(project, line) {
  if (/worker\.ts|scheduler\.ts/.test(line)) return { log: /Queue workers running|Scheduler running/ };
  if (/mcp\.ts/.test(line)) return { port: project.mcpPort };
  if (/wrangler dev/.test(line)) return { port: project.wranglerPort };
  return { port: project.port };
}

/** Runs one step; returns a note for the report or throws. */
async function runStep(project, step, ctx) {
  if (step.kind === 'install') return install(project, step.line, ctx.missing);
  if (step.kind === 'file') return writeFile(project, step);
  if (step.kind === 'docker') {
    if (/^docker exec\b/.test(step.line)) return runLine(project, step, ctx);
    return docker(project, step.line);
  }
  if (step.kind === 'interactive') return 'driven by the checks below (the ws package, the MCP SDK client)';
  if (step.kind === 'cloud') return { skipped: 'needs a cloud account: not run here', cloud: true };
  if (step.kind === 'background') {
    const line = project.sub(step.line);
    if (/^npm start$/.test(line)) {
      // `prestart` is `pikku all`: counted like any other run of it.
      const pkg = JSON.parse(readFileSync(join(project.dir, 'package.json'), 'utf8'));
      if (pkg.scripts?.prestart === 'pikku all') await pikkuAll(project, 'npm run prestart', ctx);
      const proc = await project.start('npm start --ignore-scripts', readiness(project, line));
      ctx.procs.set(step.line, proc);
      return `running (port ${project.port})`;
    }
    const proc = await project.start(line, readiness(project, line));
    ctx.procs.set(step.line, proc);
    return 'running';
  }
  if (step.kind === 'check') {
    const check = CHECKS[ctx.skill]?.find(([re]) => re.test(step.text));
    if (!check) throw new Error('no check in scripts/skills-checks.mjs matches this item');
    const later = SERVED_BY[ctx.skill];
    if (later && later.items.some((re) => re.test(step.text)))
      return { skipped: `checked in the ${later.skill} skill's run, which serves it` };
    const note = await check[1](ctx.api);
    return note ?? 'holds';
  }
  if (PIKKU_ALL.test(step.line)) return pikkuAll(project, step.line, ctx);
  return runLine(project, step, ctx);
}

async function pikkuAll(project, line, ctx) {
  const hash = inputsHash(project.dir);
  if (hash === project.pikkuHash && existsSync(join(project.dir, '.pikku')))
    return 'no input changed since the last pikku all here: its output stands';
  const r = project.sh(line);
  ctx.outputs.push({ line, ...r });
  ctx.pikkuRuns++;
  if (r.code !== 0) throw new Error(`exit ${r.code}\n${r.output}`);
  project.pikkuHash = inputsHash(project.dir);
  return `ran`;
}

function runLine(project, step, ctx) {
  const r = project.sh(project.sub(step.line));
  ctx.outputs.push({ line: step.line, ...r });
  if (r.code !== 0) throw new Error(`exit ${r.code}\n${r.output}`);
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// The checks' view of a run

function checkApi(project, ctx) {
  const api = {
    project,
    dir: project.dir,
    get env() {
      return project.env;
    },
    port: project.port,
    mcpPort: project.mcpPort,
    read: (path) => readFileSync(join(project.dir, path), 'utf8'),
    write: (path, text) => writeFileSync(join(project.dir, path), text),
    exists: (path) => existsSync(join(project.dir, path)),
    /** The output of the last line the page ran that matches `re`. */
    output(re) {
      const hit = ctx.outputs.findLast((o) => re.test(o.line));
      if (!hit) throw new Error(`the run has no step matching ${re}`);
      return hit;
    },
    /** Every line the page ran that matches `re`, in order. */
    outputsMatching: (re) => ctx.outputs.filter((o) => re.test(o.line)),
    /** Runs a line (the page's ports and containers replaced) in the skill's environment. */
    sh: (line) => project.sh(project.sub(line)),
    /** The background process the page started with a line matching `re`. */
    proc(re) {
      for (const [line, proc] of ctx.procs) if (re.test(line)) return proc;
      throw new Error(`no running process matches ${re}`);
    },
    async waitLog(proc, re, ms = 30_000) {
      await until(() => re.test(proc.log), ms, `the log never showed ${re}:\n${proc.log.slice(-3000)}`);
    },
    start: async (line) => {
      const proc = await project.start(project.sub(line), readiness(project, line));
      ctx.procs.set(line, proc);
      return proc;
    },
    stop: (proc) => project.stop(proc),
    url: (path) => `http://localhost:${project.port}${path}`,
    /** Imports a package from the shared install (the `ws` client, the MCP SDK). */
    importDep: (spec) => import(pathToFileURL(join(project.deps, 'node_modules', spec)).href),
  };
  return api;
}

// ---------------------------------------------------------------------------------------------------------------
// The run

const fmt = (s) => `${s.toFixed(1)} s`;

async function runSkillSteps(skill, project, missing, log, prefix, parsed, applied) {
  const ctx = { skill: skill.name, missing, outputs: [], procs: new Map(), stops: [], pikkuRuns: 0 };
  ctx.api = checkApi(project, ctx);
  let failed = null;
  // Items of earlier skills in this project that wait for what this one serves (SERVED_BY).
  const served = Object.entries(SERVED_BY)
    .filter(([from, { skill: by }]) => by === skill.name && applied.includes(from))
    .flatMap(([from, { items }]) =>
      parsed
        .get(from)
        .steps.filter((s) => s.kind === 'check' && items.some((re) => re.test(s.text)))
        .map((s) => ({ ...s, section: `Verify it worked (${from})`, from })),
    );
  const steps = [...skill.steps, ...served];
  try {
    for (const [i, step] of steps.entries()) {
      const label = `${prefix}${skill.name} ${i + 1}. ${step.section}: ${step.kind === 'file' ? `${step.path}` : step.kind === 'check' ? step.text : step.line}`;
      const started = Date.now();
      try {
        const note = step.from
          ? ((await CHECKS[step.from].find(([re]) => re.test(step.text))[1](ctx.api)) ?? 'holds')
          : await runStep(project, step, ctx);
        const secs = (Date.now() - started) / 1000;
        if (note?.cloud) ctx.stops.push(step.text ?? step.line);
        if (note?.skipped) log(`skip ${label} (${note.skipped})`);
        else log(`ok   ${label} (${fmt(secs)})${note ? ` - ${note}` : ''}`);
      } catch (error) {
        const secs = (Date.now() - started) / 1000;
        if (error instanceof MachineStop) {
          log(`stop ${label} - not possible on this machine:\n${error.message.replace(/^/gm, '       ')}`);
          for (const [j, rest] of steps.entries())
            if (j > i) {
              const what = rest.kind === 'file' ? rest.path : rest.kind === 'check' ? rest.text : rest.line;
              log(
                `skip ${prefix}${skill.name} ${j + 1}. ${rest.section}: ${what} (not run: the install above stopped it)`,
              );
              ctx.stops.push(what);
            }
          ctx.stops.unshift(`${step.line} (${error.message.split(':')[0]} cannot be installed here)`);
          break;
        }
        log(`FAIL ${label} (${fmt(secs)})`);
        log(
          String(error?.stack && !error.message.includes('\n') ? error.message : (error?.message ?? error))
            .trim()
            .slice(0, 6000)
            .replace(/^/gm, '       '),
        );
        const logs = [...ctx.procs.values()].map((p) => `--- ${p.line}\n${p.log.slice(-3000)}`).join('\n');
        if (logs) log(logs.replace(/^/gm, '       '));
        failed = { step: i + 1, label };
        break;
      }
    }
  } finally {
    await project.close();
  }
  return { failed, stops: ctx.stops, pikkuRuns: ctx.pikkuRuns };
}

export async function main(argv = process.argv.slice(2)) {
  const log = (line) => console.log(line);
  const order = skillNames();
  const wantedNames = argv.filter((a) => !a.startsWith('-'));
  const keep = argv.includes('--keep');
  for (const n of wantedNames) if (!order.includes(n)) throw new Error(`${n} is not a skill (src/data/skills.ts)`);
  const parsed = new Map(order.map((n) => [n, parseSkill(n)]));
  const targets = wantedNames.length ? wantedNames : order;
  const sequences = new Map(targets.map((n) => [n, runOrder(n, (x) => parsed.get(x).prerequisites, order)]));
  // Every skill's packages, whichever skills run, so that one install serves every run.
  const { wanted, problems } = collectInstalls(order.map((n) => parsed.get(n)));
  if (problems.length) throw new Error(`skills install different versions of one package:\n${problems.join('\n')}`);
  const { dir: deps, missing } = sharedInstall(wanted, log);
  for (const [name, why] of missing) log(`note: ${name} is not in the shared install: ${why}`);
  if ([...sequences.values()].flat().includes('yarn-workspace')) ensureCorepack(log);

  const root = mkdtempSync(join(tmpdir(), 'pikku-skills-'));
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, async () => {
      log(`\n${signal}: stopping what the run started`);
      for (const p of OPEN) await p.close().catch(() => {});
      if (!keep) rmSync(root, { recursive: true, force: true });
      process.exit(1);
    });
  const snapshots = new Map(); // sequence key -> { dir, result }
  const results = new Map();
  const started = Date.now();
  let pikkuRuns = 0;
  try {
    for (const name of targets) {
      const seq = sequences.get(name);
      log(`\n=== ${name}${seq.length > 1 ? ` (after ${seq.slice(0, -1).join(' > ')})` : ''}`);
      const skillStarted = Date.now();
      // The longest prefix of the sequence already run: copy its state and run the rest.
      let from = 0;
      for (let k = seq.length; k > 0; k--)
        if (snapshots.has(seq.slice(0, k).join('>'))) {
          from = k;
          break;
        }
      const dir = join(root, `${name}-${Date.now()}`, 'project');
      mkdirSync(dir, { recursive: true });
      let failure = null;
      let stops = [];
      let earlier = null;
      if (from === seq.length) {
        // Run already, as a prerequisite of an earlier skill: its result stands.
        earlier = snapshots.get(seq.join('>'));
        failure = earlier.failed;
        stops = earlier.stops;
        log(`     ran above, among the prerequisites of ${earlier.during} (${fmt(earlier.secs)})`);
      } else if (from > 0) {
        const snap = snapshots.get(seq.slice(0, from).join('>'));
        if (snap.failed) failure = { step: 0, label: `prerequisite ${seq[from - 1]} failed` };
        else copyProject(snap.dir, dir);
        log(`     from the project state after ${seq.slice(0, from).join(' > ')}`);
      }
      let pikkuHash = from > 0 ? snapshots.get(seq.slice(0, from).join('>'))?.pikkuHash : null;
      for (let k = from; k < seq.length && !failure; k++) {
        const project = new Project(dir, deps);
        project.pikkuHash = pikkuHash;
        await project.open();
        const skill = parsed.get(seq[k]);
        const stepStarted = Date.now();
        const r = await runSkillSteps(
          skill,
          project,
          missing,
          log,
          k < seq.length - 1 ? `(prerequisite) ` : '',
          parsed,
          seq.slice(0, k),
        );
        pikkuRuns += r.pikkuRuns;
        pikkuHash = project.pikkuHash;
        const key = seq.slice(0, k + 1).join('>');
        const snapDir = join(root, 'states', key.replaceAll('>', '__'));
        if (!r.failed) copyProject(dir, snapDir);
        snapshots.set(key, {
          dir: snapDir,
          failed: r.failed,
          pikkuHash,
          stops: r.stops,
          secs: (Date.now() - stepStarted) / 1000,
          during: name,
        });
        if (r.failed)
          failure =
            k === seq.length - 1 ? r.failed : { step: 0, label: `prerequisite ${seq[k]} failed at ${r.failed.label}` };
        stops = r.stops;
      }
      const secs = earlier ? earlier.secs : (Date.now() - skillStarted) / 1000;
      results.set(name, { failure, stops, secs });
      log(
        `${failure ? 'FAIL' : 'PASS'} ${name} (${fmt(secs)})${stops.length ? `; stops before: ${stops.slice(0, 3).join('; ')}${stops.length > 3 ? ` and ${stops.length - 3} more steps` : ''}` : ''}`,
      );
    }
  } finally {
    if (!keep) rmSync(root, { recursive: true, force: true });
    else log(`(kept ${root})`);
  }
  log(
    `\n--- skills: ${[...results.values()].filter((r) => !r.failure).length} of ${results.size} pass (${fmt((Date.now() - started) / 1000)}, ${pikkuRuns} pikku all runs)`,
  );
  for (const [name, r] of results)
    log(
      `${r.failure ? 'FAIL' : 'pass'} ${name.padEnd(16)} ${fmt(r.secs).padStart(8)}${r.failure ? `  ${r.failure.label}` : ''}${r.stops.length ? `  (steps not run here: ${r.stops.length})` : ''}`,
    );
  return [...results.values()].every((r) => !r.failure);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (ok) => process.exit(ok ? 0 : 1),
    (error) => {
      console.error(error?.message ?? error);
      process.exit(1);
    },
  );
}
