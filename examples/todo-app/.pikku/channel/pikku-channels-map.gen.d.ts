// Stand-in for .pikku/channel/pikku-channels-map.gen.d.ts, which `pikku all` writes from the channel wirings
// (packages/cli/src/functions/wirings/channels/serialize-typed-channel-map.ts, cli 0.12.113): per channel name,
// each routing key's values with the handler's input and output. A `void` input is written as `null`.
import type { Todo } from '../../src/todo-store.js'

interface ChannelHandler<I, O> {
  input: I
  output: O
}

export type ChannelsMap = {
  readonly todos: {
    readonly routes: {
      readonly action: {
        readonly listTodos: ChannelHandler<{ done?: boolean }, { todos: Todo[] }>
        readonly getTodo: ChannelHandler<{ todoId: string }, Todo>
        readonly createTodo: ChannelHandler<{ title: string; dueAt?: string }, Todo>
        readonly updateTodo: ChannelHandler<{ todoId: string; title?: string; done?: boolean; dueAt?: string }, Todo>
        readonly completeTodo: ChannelHandler<{ todoId: string }, Todo>
        readonly subscribeToChanges: ChannelHandler<null, { subscribed: boolean }>
        readonly unsubscribeFromChanges: ChannelHandler<null, { subscribed: boolean }>
      }
    }
    readonly defaultMessage: never
  }
}

export type ChannelDefaultHandlerOf<Channel extends keyof ChannelsMap> =
  ChannelsMap[Channel]['defaultMessage'] extends { input: infer I; output: infer O } ? ChannelHandler<I, O> : never

export type ChannelWiringHandlerOf<
  Channel extends keyof ChannelsMap,
  Route extends keyof ChannelsMap[Channel]['routes'],
  Method extends keyof ChannelsMap[Channel]['routes'][Route],
> = ChannelsMap[Channel]['routes'][Route][Method] extends { input: infer I; output: infer O } ? ChannelHandler<I, O> : never
