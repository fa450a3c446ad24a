// The "Verify it worked" items of the skill pages, as checks scripts/skills-run.mjs runs after the page's steps.
// CHECKS[skill] is a list of [pattern, check]: the pattern matches the item's text (so a reworded item that no
// longer matches fails the run until its check is looked at), the check throws when the item does not hold and may
// return a note for the report. `t` is the run's view (skills-run.mjs checkApi): t.output(re) is the last page
// line matching re that ran, t.sh(line) runs a line, t.proc(re) a process the page left running.
import assert from 'node:assert/strict';

/** An HTTP response as `curl -i` prints it: { status, headers, body }. */
export function parseCurl(text) {
  const blocks = text.split(/\r?\n\r?\n/);
  // curl -i prints one head per response (100 Continue first, if any); the last head before the body counts.
  let i = 0;
  while (i + 1 < blocks.length && /^HTTP\/[\d.]+ \d{3}/.test(blocks[i + 1])) i++;
  const [statusLine, ...headerLines] = blocks[i].split(/\r?\n/);
  const status = Number(/^HTTP\/[\d.]+ (\d{3})/.exec(statusLine)?.[1]);
  const headers = Object.fromEntries(
    headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  return { status, headers, body: blocks.slice(i + 1).join('\n\n') };
}

const curl = (t, re) => parseCurl(t.output(re).stdout);
const expectStatus = (res, status, what) =>
  assert.equal(res.status, status, `${what}: expected ${status}, got ${res.status} ${res.body.slice(0, 300)}`);
const lines = (s) => s.split('\n').filter((l) => l.trim());
const pikkuFunctions = (t) => {
  const r = t.sh('npx pikku info functions');
  assert.equal(r.code, 0, r.output);
  return r.stdout;
};
const listsFunctions = (t, names) => {
  const out = pikkuFunctions(t);
  for (const n of names)
    assert.match(out, new RegExp(`\\b${n}\\b`), `pikku info functions does not list ${n}:\n${out}`);
  return `lists ${names.join(', ')}`;
};
const typecheckPassed = (t) => {
  const r = t.output(/^npm run typecheck$/);
  assert.equal(r.code, 0, r.output);
};

/** A WebSocket client session with the `ws` package: send(obj), next() -> the next message as text. */
export async function wsSession(t, path, headers = {}) {
  const { default: WebSocket } = await t.importDep('ws/index.js');
  const ws = new WebSocket(`ws://localhost:${t.port}${path}`, { headers });
  const queue = [];
  const waiters = [];
  let closed = false;
  ws.on('message', (d) => {
    const text = d.toString();
    const w = waiters.shift();
    if (w) w(text);
    else queue.push(text);
  });
  ws.on('close', () => {
    closed = true;
    for (const w of waiters.splice(0)) w(null);
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade answered ${res.statusCode}`)));
  });
  return {
    ws,
    get closed() {
      return closed;
    },
    send: (obj) => ws.send(typeof obj === 'string' ? obj : JSON.stringify(obj)),
    next: (ms = 10_000) =>
      queue.length
        ? Promise.resolve(queue.shift())
        : new Promise((resolve, reject) => {
            if (closed) return resolve(null);
            const timer = setTimeout(() => reject(new Error(`no message within ${ms} ms`)), ms);
            waiters.push((m) => (clearTimeout(timer), resolve(m)));
          }),
    close: () => ws.close(),
  };
}

const bearer = (t) => ({ Authorization: `Bearer ${t.env.TODO_TOKEN}` });

const sleepMs = (ms) => new Promise((r) => setTimeout(r, ms));

/** The channel page's wscat exchange, message for message. */
async function channelExchange(t) {
  const s = await wsSession(t, '/todos/live', bearer(t));
  try {
    assert.deepEqual(JSON.parse(await s.next()), { signedIn: true });
    s.send({ action: 'subscribeToChanges' });
    assert.deepEqual(JSON.parse(await s.next()), { subscribed: true, action: 'subscribeToChanges' });
    s.send({ action: 'createTodo', title: 'Order pizza' });
    const created = JSON.parse(await s.next());
    assert.deepEqual(Object.keys(created).sort(), ['action', 'done', 'ownerId', 'title', 'todoId']);
    assert.deepEqual(
      { ...created, todoId: '…' },
      { ownerId: 'user-1', title: 'Order pizza', done: false, todoId: '…', action: 'createTodo' },
    );
    s.send({ action: 'listTodos' });
    const listed = JSON.parse(await s.next());
    assert.equal(listed.action, 'listTodos');
    const mine = listed.todos.find((x) => x.todoId === created.todoId);
    assert.ok(mine, JSON.stringify(listed));
    assert.equal(mine.action, 'createTodo', 'the listed to-do does not carry the action key');
  } finally {
    s.close();
  }
}

/**
 * A socket without a session: each message to a route gets the text naming that route, then the bare routing key.
 * The echo, rather than the runner's `{ error, errorName }` (which a function needing a session would answer), and
 * no frame after it show that the function did not run.
 */
async function unauthorizedOverSocket(t) {
  const s = await wsSession(t, '/todos/live');
  try {
    assert.deepEqual(JSON.parse(await s.next()), { signedIn: false });
    for (const [action, rest] of [
      ['listTodos', {}],
      ['createTodo', { title: 'Sent without a session' }],
    ]) {
      s.send({ action, ...rest });
      assert.equal(await s.next(), `Unauthorized for route 'action:${action}'`);
      assert.deepEqual(JSON.parse(await s.next()), { action });
    }
    await assert.rejects(s.next(500), /no message within/, 'a frame followed the echo');
  } finally {
    s.close();
  }
}

const startOption = async (t, line, checks) => {
  const proc = await t.start(line);
  try {
    return await checks(proc);
  } finally {
    await t.stop(proc);
  }
};

/**
 * The runtime skills' option B: stops option A's server (src/runtimes/<name>-server.ts), runs `checks` while option
 * B (src/runtimes/<name>.ts) serves, stops it and starts option A again for the checks after.
 */
const duringOptionB = async (t, name, checks) => {
  await t.stop(t.proc(new RegExp(`${name}-server\\.ts`)));
  await startOption(t, `npx tsx src/runtimes/${name}.ts`, checks);
  await t.start(`npx tsx src/runtimes/${name}-server.ts`);
};

const routesLogged = (t, re) => {
  const { log } = t.proc(re);
  assert.match(log, /\/todos/, `the start-up log lists no routes:\n${log.slice(0, 2000)}`);
};

/**
 * Items that need what a later skill starts: CHECKS[skill] items whose pattern is listed here print as skipped in
 * that skill's own run and run in the named skill's run, after its own items (the channel needs a WebSocket server).
 */
export const SERVED_BY = {
  channel: {
    skill: 'ws',
    items: [
      /^In the `wscat` session/,
      /^The listed to-do/,
      /^Open a second `wscat`/,
      /^Connected without/,
      /^`\{"action":"getTodo"/,
    ],
  },
};

export const CHECKS = {
  'project-setup': [
    [
      /^Both folders exist and contain an `index\.ts`/,
      (t) => {
        for (const f of ['.pikku/setup/index.ts', '.pikku/function/index.ts'])
          assert.ok(t.exists(f), `${f} is missing`);
      },
    ],
    [/^`npm run typecheck` finishes with no errors/, typecheckPassed],
  ],
  functions: [
    [/^`npm run typecheck` finishes with no errors/, typecheckPassed],
    [
      /^The test run reports `pass 2` and `fail 0`/,
      (t) => {
        const { stdout } = t.output(/--test src\/functions\/todos\.functions\.test\.ts/);
        assert.match(stdout, /^(#|ℹ) pass 2$/m);
        assert.match(stdout, /^(#|ℹ) fail 0$/m);
      },
    ],
    [
      /^`npx pikku info functions` lists the six functions/,
      (t) => listsFunctions(t, ['listTodos', 'getTodo', 'createTodo', 'updateTodo', 'deleteTodo', 'health']),
    ],
  ],
  http: [
    [
      /^`\/health` answers `200`/,
      (t) => {
        const r = curl(t, /\/health$/);
        expectStatus(r, 200, '/health');
        assert.equal(r.body.trim(), '{"status":"ok"}');
      },
    ],
    [
      /^`\/todos` answers `403`/,
      (t) => {
        const r = curl(t, /^curl -i http:\/\/localhost:3000\/todos$/);
        expectStatus(r, 403, '/todos');
        assert.match(r.body, /"message":"Authentication required"/);
      },
    ],
    [
      /^The preflight answers `500`, with `Content-Type cannot be set to an Array`/,
      (t) => {
        const r = curl(t, /-X OPTIONS/);
        expectStatus(r, 500, 'the preflight');
        assert.match(r.body, /Content-Type cannot be set to an Array/);
        const get = parseCurl(t.sh('curl -i -H "Origin: http://localhost:5173" http://localhost:3000/health').stdout);
        assert.equal(
          get.headers['access-control-allow-origin'],
          'http://localhost:5173',
          'an ordinary request lacks its CORS header',
        );
      },
    ],
    [
      /^The server's log shows a line from `requestLogger`/,
      async (t) => {
        const proc = t.proc(/^npm start$/);
        // requestLogger's own line, `<wireType> <functionId> took <n> ms`, for /health and then /todos.
        await t.waitLog(proc, /\bhttp health took \d+ ms[\s\S]*\bhttp listTodos took \d+ ms/, 5000);
      },
    ],
  ],
  'auth-middleware': [
    [
      /^Without a credential: `403`/,
      (t) => {
        const r = curl(t, /^curl -i http:\/\/localhost:3000\/todos$/);
        expectStatus(r, 403, 'no credential');
        assert.match(r.body, /Authentication required/);
      },
    ],
    [
      /^With the bearer token or the API key: `200`/,
      (t) => {
        for (const re of [/Authorization: Bearer \$TODO_TOKEN" http:\/\/localhost:3000\/todos$/, /x-api-key/]) {
          const r = curl(t, re);
          expectStatus(r, 200, String(re));
          assert.equal(r.body.trim(), '{"todos":[]}');
        }
      },
    ],
    [
      /^With a malformed `Authorization` header: `401`/,
      (t) => {
        const r = curl(t, /Token abc/);
        expectStatus(r, 401, 'a malformed header');
        // "from InvalidSessionError": the error's name is in the body, as examples/todo-app/tests/behaviour/http.test.ts
        // (malformed-authorization-401) reads it.
        assert.match(r.body, /"name":"InvalidSessionError"/);
      },
    ],
    [
      /^The `PATCH` answers `403` with `"Permission denied"`/,
      (t) => {
        const r = curl(t, /-X PATCH -H "Authorization: Bearer \$OTHER_TOKEN"/);
        expectStatus(r, 403, 'PATCH as user-2');
        assert.match(r.body, /Permission denied/);
        const own = parseCurl(
          t.sh(
            `curl -i -X PATCH -H "Authorization: Bearer $TODO_TOKEN" -H 'Content-Type: application/json' -d '{"done":true}' "http://localhost:3000/todos/$TODO_ID"`,
          ).stdout,
        );
        expectStatus(own, 200, 'PATCH as the owner');
      },
    ],
  ],
  channel: [
    [
      /^`npm run typecheck` passes, and `npx pikku info functions` lists/,
      (t) => {
        typecheckPassed(t);
        return listsFunctions(t, ['subscribeToChanges', 'unsubscribeFromChanges', 'completeTodo']);
      },
    ],
    // "Once a runtime serves the channel": these run in the ws skill's run, against its server (SERVED_BY).
    [/^In the `wscat` session, the first frame is the `onConnect` reply/, channelExchange],
    [/^The listed to-do still carries `"action":"createTodo"`/, channelExchange],
    [
      /^Open a second `wscat` session with the same token and send `\{"action":"completeTodo"/,
      async (t) => {
        const first = await wsSession(t, '/todos/live', bearer(t));
        const second = await wsSession(t, '/todos/live', bearer(t));
        try {
          for (const s of [first, second]) assert.deepEqual(JSON.parse(await s.next()), { signedIn: true });
          first.send({ action: 'subscribeToChanges' });
          assert.deepEqual(JSON.parse(await first.next()), { subscribed: true, action: 'subscribeToChanges' });
          first.send({ action: 'createTodo', title: 'Order pizza' });
          const { todoId } = JSON.parse(await first.next());
          second.send({ action: 'completeTodo', todoId });
          const reply = JSON.parse(await second.next());
          assert.equal(reply.todoId, todoId);
          assert.equal(reply.done, true);
          const pushed = JSON.parse(await first.next());
          assert.equal(pushed.topic, 'todos:user-1');
          assert.equal(pushed.data.todoId, todoId);
          assert.equal(pushed.data.done, true);
        } finally {
          first.close();
          second.close();
        }
      },
    ],
    [
      /^Connected without the `-H` header, the socket still opens, but every message to one of its routes is answered/,
      unauthorizedOverSocket,
    ],
    [
      /^`\{"action":"getTodo","todoId":"no-such-id"\}` is answered with/,
      async (t) => {
        // The error reply, the socket left open, and "the channel counts as closed": a subscribed socket gets no push
        // after the error, until it subscribes again.
        const failing = await wsSession(t, '/todos/live', bearer(t));
        const watcher = await wsSession(t, '/todos/live', bearer(t));
        const actor = await wsSession(t, '/todos/live', bearer(t));
        const call = async (s, msg) => (s.send(msg), JSON.parse(await s.next()));
        const completeOne = async (title) => {
          const { todoId } = await call(actor, { action: 'createTodo', title });
          assert.equal((await call(actor, { action: 'completeTodo', todoId })).done, true);
          return todoId;
        };
        try {
          for (const s of [failing, watcher, actor]) assert.deepEqual(JSON.parse(await s.next()), { signedIn: true });
          for (const s of [failing, watcher]) await call(s, { action: 'subscribeToChanges' });
          assert.deepEqual(await call(failing, { action: 'getTodo', todoId: 'no-such-id' }), {
            error: 'The server cannot find the requested resource.',
            errorName: 'NotFoundError',
          });
          // Past the runner's 200 ms close: the ws server keeps the socket itself open.
          await sleepMs(500);
          assert.equal(failing.closed, false, 'the ws server closed the connection');
          const first = await completeOne('Pushed after the error');
          assert.equal((await watcher.next()).includes(first), true, 'the watcher got no push');
          // A push to `failing` would have been sent with the watcher's, before this reply.
          assert.equal((await call(failing, { action: 'listTodos' })).action, 'listTodos', 'a push reached the socket');
          await call(failing, { action: 'subscribeToChanges' });
          const second = await completeOne('Pushed after subscribing again');
          const pushed = JSON.parse(await failing.next());
          assert.equal(pushed.topic, 'todos:user-1');
          assert.equal(pushed.data.todoId, second);
        } finally {
          for (const s of [failing, watcher, actor]) s.close();
        }
      },
    ],
  ],
  ws: [
    [
      /^`wscat` connects and receives `\{"signedIn":true\}`/,
      async (t) => {
        const s = await wsSession(t, '/todos/live', bearer(t));
        try {
          assert.deepEqual(JSON.parse(await s.next()), { signedIn: true });
          s.send({ action: 'listTodos' });
          assert.deepEqual(JSON.parse(await s.next()), { todos: [], action: 'listTodos' });
        } finally {
          s.close();
        }
      },
    ],
    [
      /^Send `\{"action":"createTodo","title":"Call the plumber"\}`/,
      async (t) => {
        const s = await wsSession(t, '/todos/live', bearer(t));
        try {
          assert.deepEqual(JSON.parse(await s.next()), { signedIn: true });
          s.send({ action: 'createTodo', title: 'Call the plumber' });
          const reply = JSON.parse(await s.next());
          assert.equal(reply.action, 'createTodo');
          assert.equal(reply.title, 'Call the plumber');
          const r = parseCurl(
            t.sh(`curl -i -H "Authorization: Bearer $TODO_TOKEN" http://localhost:3000/todos`).stdout,
          );
          expectStatus(r, 200, 'GET /todos');
          assert.ok(
            JSON.parse(r.body).todos.some((x) => x.todoId === reply.todoId),
            `GET /todos does not list it: ${r.body}`,
          );
        } finally {
          s.close();
        }
      },
    ],
    [/^Connected without the `-H` header/, unauthorizedOverSocket],
    [
      /^Connecting to a path no channel has/,
      async (t) => {
        // The page promises the 404 itself, not just a failed connection.
        await assert.rejects(wsSession(t, '/nope'), /upgrade answered 404/);
      },
    ],
    [
      /^`curl -i http:\/\/localhost:3000\/health` still returns `200`/,
      (t) => {
        const r = parseCurl(t.sh('curl -i http://localhost:3000/health').stdout);
        expectStatus(r, 200, '/health');
        assert.equal(r.body.trim(), '{"status":"ok"}');
      },
    ],
  ],
  uws: [
    [
      /^`\/health` returns `200` `\{"status":"ok"\}`, and `\/todos` with the token returns `200`/,
      (t) => {
        const h = curl(t, /\/health$/);
        expectStatus(h, 200, '/health');
        assert.equal(h.body.trim(), '{"status":"ok"}');
        const r = curl(t, /Bearer \$TODO_TOKEN" http:\/\/localhost:3000\/todos$/);
        expectStatus(r, 200, '/todos');
        assert.equal(r.body.trim(), '{"todos":[]}');
      },
    ],
    [
      /^Option A also answers `curl -i http:\/\/localhost:3000\/health-check`/,
      async (t) => {
        const r = parseCurl(t.sh('curl -i http://localhost:3000/health-check').stdout);
        expectStatus(r, 200, '/health-check');
        assert.equal(r.body.trim(), '');
        await duringOptionB(t, 'uws', async () => {
          assert.equal(t.sh('curl http://localhost:3000/version').stdout.trim(), '{"version":"dev"}');
        });
      },
    ],
    [
      /^With the channel skill applied, `wscat` connects and receives `\{"signedIn":true\}`/,
      async (t) => {
        const s = await wsSession(t, '/todos/live', bearer(t));
        try {
          assert.deepEqual(JSON.parse(await s.next()), { signedIn: true });
          s.send({ action: 'listTodos' });
          assert.deepEqual(JSON.parse(await s.next()), { todos: [], action: 'listTodos' });
        } finally {
          s.close();
        }
      },
    ],
    [/^Connected without the `-H` header/, unauthorizedOverSocket],
  ],
  queue: [
    [/^`npm run typecheck` finishes with no errors/, typecheckPassed],
    [
      /^`npx pikku info functions` lists `sendReminder` and `queueReminder`/,
      (t) => listsFunctions(t, ['sendReminder', 'queueReminder']),
    ],
    [
      /^In `\.pikku\/pikku-services\.gen\.ts`, `requiredSingletonServices` has `'queueService': true`/,
      (t) => {
        const gen = t.read('.pikku/pikku-services.gen.ts');
        const block = /requiredSingletonServices[\s\S]*?\}/.exec(gen)?.[0] ?? '';
        assert.match(block, /'queueService': true/, block);
      },
    ],
  ],
  'queue-bullmq': queueBackendChecks(/bullmq-worker\.ts/, /bullmq-enqueue\.ts/, /redis-cli/),
  'queue-pg-boss': queueBackendChecks(/pg-boss-worker\.ts/, /pg-boss-enqueue\.ts/, /psql/),
  scheduler: [
    [
      /^On start the process logs `Scheduler running`/,
      (t) => assert.match(t.proc(/scheduler\.ts/).log, /Scheduler running/),
    ],
    [
      /^With the every-minute schedule, within a minute the process logs/,
      async (t) => {
        // The page's own experiment: the schedule changed to every minute, both commands again, a minute's wait.
        await t.stop(t.proc(/scheduler\.ts/));
        const file = 'src/wirings/digest.scheduler.ts';
        const original = t.read(file);
        assert.match(original, /'0 9 \* \* \*'/);
        t.sh(`sed -i "s/'0 9 \\* \\* \\*'/'* * * * *'/" ${file}`);
        try {
          const r = t.sh('npm run pikku');
          assert.equal(r.code, 0, r.output);
          const proc = await t.start('npx tsx src/scheduler.ts');
          await t.waitLog(
            proc,
            /Running scheduled task: daily-digest[\s\S]*Sending the daily digest of open to-dos/,
            75_000,
          );
          await t.stop(proc);
        } finally {
          t.sh(`cat > ${file} <<'EOF'\n${original}EOF`);
        }
        return 'ran once within a minute';
      },
    ],
    [/^`npx pikku info functions` lists `dailyDigest`/, (t) => listsFunctions(t, ['dailyDigest'])],
  ],
  cli: [
    [
      /^`--help` prints the help of the `todos` program/,
      (t) => {
        const { stdout, stderr } = t.output(/--help$/);
        const out = stdout + stderr;
        // Each command with the description its wiring gives it.
        assert.match(out, /^\s+list\s+List a user's to-dos$/m);
        assert.match(out, /^\s+add\s+Add a to-do for a user$/m);
      },
    ],
    [
      /^`add` prints `Created <id>: Renew the domain`/,
      (t) => assert.match(t.output(/src\/cli\.ts add "Renew/).stdout, /^Created \S+: Renew the domain$/m),
    ],
    [/^`list` prints `No to-dos\.`/, (t) => assert.equal(t.output(/src\/cli\.ts list/).stdout.trim(), 'No to-dos.')],
    [
      /^`npx tsx src\/cli\.ts add --owner user-1`, with no title/,
      (t) => {
        const r = t.sh('npx tsx src/cli.ts add --owner user-1');
        assert.equal(r.code, 1, r.output);
        assert.match(r.stderr, /Missing required argument: title/);
      },
    ],
  ],
  mcp: [
    [
      /^The Inspector's tool list shows `countOpenTodos` and `listOpenTodos`/,
      async (t) =>
        mcpClient(t, true, async (c) => {
          const listed = (await c.listTools()).tools;
          const tools = listed.map((x) => x.name);
          for (const n of ['countOpenTodos', 'listOpenTodos']) assert.ok(tools.includes(n), `tools: ${tools}`);
          // "with their descriptions": each tool carries the description its function declares.
          const described = Object.fromEntries(listed.map((x) => [x.name, x.description]));
          assert.equal(
            described.countOpenTodos,
            "Count the caller's open to-dos and how many of them are past their due date",
          );
          assert.equal(
            described.listOpenTodos,
            "List the caller's to-dos that are not done yet, with their ids and due dates",
          );
          const templates = (await c.listResourceTemplates()).resourceTemplates.map((x) => x.uriTemplate);
          assert.ok(templates.includes('todos://items/{todoId}'), `templates: ${templates}`);
          const prompts = (await c.listPrompts()).prompts.map((x) => x.name);
          assert.ok(prompts.includes('planDay'), `prompts: ${prompts}`);
        }),
    ],
    [
      /^Calling `listOpenTodos` returns the text "There are no open to-dos\."/,
      async (t) =>
        mcpClient(t, true, async (c) => {
          const list = await c.callTool({ name: 'listOpenTodos', arguments: {} });
          assert.equal(list.content[0].text, 'There are no open to-dos.', JSON.stringify(list));
          const count = await c.callTool({ name: 'countOpenTodos', arguments: {} });
          assert.deepEqual(JSON.parse(count.content[0].text), { open: 0, overdue: 0 });
        }),
    ],
    [
      /^Reading `todos:\/\/items\/no-such-id` fails with code `-32601`/,
      async (t) =>
        mcpClient(t, true, async (c) => {
          await assert.rejects(
            c.readResource({ uri: 'todos://items/no-such-id' }),
            (e) => e.code === -32601 || assert.fail(`code ${e.code}: ${e.message}`),
          );
        }),
    ],
    [
      /^Without the `Authorization` header, tool calls fail with code `-32603`/,
      async (t) =>
        mcpClient(t, false, async (c) => {
          // A failed tool call is a result flagged isError, whose one text item is the JSON-RPC error.
          for (const name of ['listOpenTodos', 'countOpenTodos']) {
            const result = await c.callTool({ name, arguments: {} });
            assert.equal(result.isError, true, JSON.stringify(result));
            const error = JSON.parse(result.content[0].text);
            assert.equal(error.code, -32603, JSON.stringify(error));
            assert.equal(error.data?.message, 'Authentication required', JSON.stringify(error));
          }
        }),
    ],
  ],
  kysely: [
    [
      /^`src\/kysely-db\.d\.ts` exists and exports `DB` and `Todos`/,
      (t) => {
        const db = t.read('src/kysely-db.d.ts');
        assert.match(db, /export interface DB\b/);
        assert.match(db, /export interface Todos\b/);
        assert.match(db, /\bownerId:/);
        assert.match(db, /\bdueAt:/);
        typecheckPassed(t);
        // "A typo such as .where('owner', '=', ownerId) now fails to compile": the store with that typo, type-checked.
        const file = 'src/kysely-todo-store.ts';
        const original = t.read(file);
        const typo = original.replace(".where('ownerId', '=', ownerId)", ".where('owner', '=', ownerId)");
        assert.notEqual(typo, original, `${file} has no .where('ownerId', '=', ownerId)`);
        t.write(file, typo);
        try {
          const r = t.sh('npm run typecheck');
          assert.notEqual(r.code, 0, 'the typo compiled');
          assert.match(r.output, /kysely-todo-store\.ts\(\d+,\d+\): error TS\d+:[\s\S]*["']owner["']/, r.output);
        } finally {
          t.write(file, original);
        }
        return "the .where('owner', ...) typo fails npm run typecheck";
      },
    ],
    [
      /^The first `POST` answers `200` with the new to-do; the second answers `409`/,
      (t) => {
        const posts = t.project && t.outputsMatching(/-X POST .*Book the venue/);
        assert.equal(posts.length, 2);
        const [first, second] = posts.map((p) => parseCurl(p.stdout));
        expectStatus(first, 200, 'the first POST');
        expectStatus(second, 409, 'the second POST');
        assert.match(second.body, /You already have a to-do called \\?"Book the venue\\?"/);
      },
    ],
    [
      /^Stop the server and start it again/,
      async (t) => {
        await t.stop(t.proc(/^npm start$/));
        await t.start('npm start');
        const r = parseCurl(t.sh('curl -i -H "Authorization: Bearer $TODO_TOKEN" http://localhost:3000/todos').stdout);
        expectStatus(r, 200, 'GET /todos after the restart');
        assert.match(r.body, /Book the venue/);
        const q = t.sh(`psql "$DATABASE_URL" -c 'select * from todos'`);
        assert.equal(q.code, 0, q.output);
        assert.match(q.stdout, /owner_id/);
        assert.match(q.stdout, /Book the venue/);
      },
    ],
  ],
  'yarn-workspace': [
    [
      /^`yarn workspaces list` prints `\.`, `backends\/express` and `packages\/sdk`/,
      (t) => {
        const out = t.output(/^yarn workspaces list$/).stdout;
        const listed = lines(out).map((l) => l.replace(/^➤ YN0000: /, '').trim());
        for (const w of ['.', 'backends/express', 'packages/sdk'])
          assert.ok(listed.includes(w), `not listed: ${w}\n${out}`);
      },
    ],
    [
      /^`\/health` answers `200` with `\{"status":"ok"\}`, served by the Express backend/,
      (t) => {
        const r = curl(t, /\/health$/);
        expectStatus(r, 200, '/health');
        assert.equal(r.body.trim(), '{"status":"ok"}');
        // "Served by the Express backend": the port could answer while the backend failed to bind it (another
        // server left on it), so the backend's own process must still run and have logged PikkuExpressServer's line.
        const backend = t.proc(/run dev$/);
        assert.equal(backend.exited, null, `the backend exited:\n${backend.log.slice(-2000)}`);
        assert.match(
          backend.log,
          /listening on port \d+/,
          `the backend never logged its start:\n${backend.log.slice(-2000)}`,
        );
      },
    ],
    [
      /^`yarn typecheck:all` passes in the root and in `backends\/express`/,
      (t) => {
        const r = t.output(/^yarn typecheck:all$/);
        assert.equal(r.code, 0, r.output);
        // foreach prints only "Done", not the workspaces it ran in: each one's typecheck, run on its own, passes too.
        for (const line of ['yarn run typecheck', 'yarn workspace @todo/backend-express run typecheck']) {
          const one = t.sh(line);
          assert.equal(one.code, 0, `${line}: ${one.output}`);
        }
      },
    ],
  ],
  'aws-lambda': [
    [
      /^The local invoke prints a result whose `statusCode` is `200`/,
      (t) => {
        const out = t.output(/serverless invoke local/).stdout;
        const json = JSON.parse(out.slice(out.indexOf('{'), out.lastIndexOf('}') + 1));
        assert.equal(json.statusCode, 200, out);
        assert.equal(json.body, '{"status":"ok"}');
      },
    ],
    [
      /^After deploying, `curl -i <the endpoint printed by deploy>\/health`/,
      () => ({ skipped: 'needs the deploy, which needs an AWS account', cloud: true }),
    ],
    [
      /^`npx serverless invoke --function dailyDigest` runs the digest once/,
      () => ({ skipped: 'needs the deploy, which needs an AWS account', cloud: true }),
    ],
  ],
  cloudflare: [
    [
      /^`curl -i http:\/\/localhost:8787\/health` returns `200`/,
      (t) => {
        const r = parseCurl(t.sh('curl -i http://localhost:8787/health').stdout);
        expectStatus(r, 200, '/health');
        assert.equal(r.body.trim(), '{"status":"ok"}');
      },
    ],
    [
      /^With a token from the auth skill's script, `curl -i -H "Authorization: Bearer \$TODO_TOKEN" http:\/\/localhost:8787\/todos` returns `200`/,
      (t) => {
        // The auth skill's way to a token, in this terminal.
        const tok = t.sh(
          'export JWT_SECRET="$(cat .jwt-secret)"; export TODO_TOKEN="$(npx tsx scripts/issue-token.ts user-1 member)"',
        );
        assert.equal(tok.code, 0, tok.output);
        const r = parseCurl(t.sh('curl -i -H "Authorization: Bearer $TODO_TOKEN" http://localhost:8787/todos').stdout);
        expectStatus(r, 200, '/todos with the token');
        assert.equal(r.body.trim(), '{"todos":[]}');
        expectStatus(parseCurl(t.sh('curl -i http://localhost:8787/todos').stdout), 403, '/todos without it');
      },
    ],
    [
      /^`curl "http:\/\/localhost:8787\/__scheduled\?cron=0\+9\+\*\+\*\+\*"` fires the cron handler/,
      async (t) => {
        const r = t.sh('curl "http://localhost:8787/__scheduled?cron=0+9+*+*+*"');
        assert.equal(r.code, 0, r.output);
        await t.waitLog(t.proc(/wrangler dev/), /Sending the daily digest of open to-dos/, 20_000);
      },
    ],
    [
      /^After `npx wrangler deploy`, the same HTTP checks pass/,
      () => ({ skipped: 'needs the deploy, which needs a Cloudflare account', cloud: true }),
    ],
  ],
  express: [
    [
      /^`\/health` returns `200` `\{"status":"ok"\}`, and `\/todos` returns `403`/,
      (t) => {
        const h = curl(t, /\/health$/);
        expectStatus(h, 200, '/health');
        assert.equal(h.body.trim(), '{"status":"ok"}');
        expectStatus(curl(t, /\/todos$/), 403, '/todos');
      },
    ],
    [
      /^Option A: `curl -i http:\/\/localhost:3000\/health-check` returns `200`/,
      (t) => {
        const r = parseCurl(t.sh('curl -i http://localhost:3000/health-check').stdout);
        expectStatus(r, 200, '/health-check');
        assert.equal(r.body.trim(), '{"status":"ok"}');
      },
    ],
    [
      /^Option B: `curl http:\/\/localhost:3000\/legacy\/ping` prints `pong`/,
      async (t) => {
        await duringOptionB(t, 'express', async () => {
          assert.equal(t.sh('curl http://localhost:3000/legacy/ping').stdout.trim(), 'pong');
          const r = parseCurl(t.sh('curl -i http://localhost:3000/nope').stdout);
          expectStatus(r, 404, '/nope');
          assert.match(r.headers['content-type'] ?? '', /json/);
        });
        return 'option B started, checked and stopped';
      },
    ],
    [/^The start-up log lists the routes/, (t) => routesLogged(t, /express-server\.ts/)],
  ],
  fastify: [
    [
      /^`\/health` returns `200` `\{"status":"ok"\}`\.$/,
      (t) => {
        const h = curl(t, /\/health$/);
        expectStatus(h, 200, '/health');
        assert.equal(h.body.trim(), '{"status":"ok"}');
      },
    ],
    [
      /^`\/todos` returns `403`/,
      (t) => expectStatus(curl(t, /^curl -i http:\/\/localhost:3000\/todos$/), 403, '/todos'),
    ],
    [
      /^The `POST` also returns `403` without a session/,
      (t) => expectStatus(curl(t, /-X POST/), 403, 'POST without a session'),
    ],
    [
      /^Option A: `curl -i http:\/\/localhost:3000\/health-check` returns `200`/,
      async (t) => {
        const r = parseCurl(t.sh('curl -i http://localhost:3000/health-check').stdout);
        expectStatus(r, 200, '/health-check');
        assert.equal(r.body.trim(), '{"status":"ok"}');
        await duringOptionB(t, 'fastify', async () => {
          assert.equal(t.sh('curl http://localhost:3000/legacy/ping').stdout.trim(), 'pong');
        });
      },
    ],
    [/^The start-up log lists the routes/, (t) => routesLogged(t, /fastify-server\.ts/)],
  ],
};

function queueBackendChecks(workerRe, enqueueRe, cliRe) {
  return [
    [
      /^The worker logs `Successfully registered queue processor: todo-reminders`/,
      (t) => {
        const { log } = t.proc(workerRe);
        assert.match(log, /Successfully registered queue processor: todo-reminders[\s\S]*Queue workers running/);
      },
    ],
    [
      /^The enqueue script prints one line: the job's id/,
      (t) => assert.equal(lines(t.output(enqueueRe).stdout).length, 1, t.output(enqueueRe).output),
    ],
    [
      /Processing job <id> in queue todo-reminders/,
      async (t) => {
        const id = lines(t.output(enqueueRe).stdout)[0].trim();
        await t.waitLog(
          t.proc(workerRe),
          new RegExp(`Processing job ${id.replace(/[-]/g, '\\-')} in queue todo-reminders`),
          30_000,
        );
        return `job ${id}`;
      },
    ],
    [
      cliRe.source === 'redis-cli' ? /^`docker exec pikku-redis redis-cli --scan/ : /^`docker exec pikku-pg psql/,
      (t) => {
        const item =
          cliRe.source === 'redis-cli'
            ? "docker exec pikku-redis redis-cli --scan --pattern 'bull:todo-reminders:*'"
            : "docker exec pikku-pg psql -U postgres -d todos -c '\\dn'";
        const r = t.sh(t.project.sub(item));
        assert.equal(r.code, 0, r.output);
        if (cliRe.source === 'redis-cli') assert.match(r.stdout, /^bull:todo-reminders:/m);
        else {
          assert.match(r.stdout, /\bpublic\b/);
          assert.ok(
            lines(r.stdout).some((l) => /\|/.test(l) && !/public|Name|Owner/.test(l)),
            r.stdout,
          );
        }
      },
    ],
    [
      /^Stop the worker, run the enqueue script again/,
      async (t) => {
        await t.stop(t.proc(workerRe));
        const line = t.output(enqueueRe).line;
        const r = t.sh(line);
        assert.equal(r.code, 0, r.output);
        const id = lines(r.stdout)[0].trim();
        const workerLine =
          cliRe.source === 'redis-cli'
            ? 'npx tsx src/runtimes/bullmq-worker.ts'
            : 'npx tsx src/runtimes/pg-boss-worker.ts';
        const proc = await t.start(workerLine);
        await t.waitLog(proc, new RegExp(`Processing job ${id} in queue todo-reminders`), 60_000);
        return `job ${id} ran after the restart`;
      },
    ],
  ];
}

async function mcpClient(t, withToken, use) {
  const { Client } = await t.importDep('@modelcontextprotocol/sdk/dist/esm/client/index.js');
  const { StreamableHTTPClientTransport } = await t.importDep(
    '@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js',
  );
  const token = withToken ? lines(t.output(/issue-token\.ts user-1 member$/).stdout)[0].trim() : null;
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${t.mcpPort}/mcp`), {
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
  });
  const client = new Client({ name: 'skills-run', version: '1.0.0' });
  await client.connect(transport);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}
