import { wireAddon } from '#pikku/addon'

// #region wireAddon
// Installs the team chat addon (addon-example/) under the namespace 'chat': its function is now callable as
// rpc.invoke('chat:postToChat', { text }). (ref('chat:postToChat') wires it to a route, but see chat-post.http.ts.)
wireAddon({
  name: 'chat',
  package: '@todo-app/notify-addon',
  // Callers need a session. This flag can only add that check: auth: false removes none.
  auth: true,
})
// #endregion wireAddon
