// Stand-in for the addon's .pikku/addon/rpc/pikku-rpc-wirings-map.internal.gen.d.ts
// (packages/cli/src/functions/wirings/rpc/serialize-typed-rpc-map.ts): the addon's functions by their own names.
// An app that installs the addon imports this map through the package's "./.pikku/*" export and prefixes each
// name with the namespace it chose.
interface RPCHandler<I, O> {
  input: I
  output: O
}

export type RPCMap = {
  readonly postToChat: RPCHandler<{ text: string }, { posted: true }>
}
