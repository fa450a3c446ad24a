// Stand-in for .pikku/pikku-bootstrap.gen.ts (packages/cli/src/utils/generate-bootstrap-file.ts): the real file
// imports every wiring and the generated metadata for its side effects. Entry points import it first.
import '../src/wirings/todos.http.js'
import '../src/wirings/todos.channel.js'
import '../src/wirings/todos.sse.js'
import '../src/wirings/todos.mcp.js'
import '../src/wirings/reminders.queue.js'
import '../src/wirings/cleanup.queue.js'
import '../src/wirings/digest.scheduler.js'
import '../src/triggers/inbox.wiring.js'
import '../src/gateways/slack.gateway.js'
import '../src/addons/notify.addon.js'
