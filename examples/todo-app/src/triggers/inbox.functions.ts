// The team inbox trigger: a tracker publishes items assigned to team members as a JSON list, and each new item
// becomes a to-do for its assignee. See src/triggers/inbox.wiring.ts for how the two functions are joined.
import { pikkuSessionlessFunc } from '#pikku/function'
import { pikkuTriggerFunc } from '#pikku/trigger'
import type { Todo } from '../todo-store.js'

// #region InboxItem
/** One item of the tracker's feed. */
export interface InboxItem {
  itemId: string
  title: string
  assigneeId: string
  dueAt?: string
}
// #endregion InboxItem

// #region pollInbox
/** The source: polls the feed and fires once per item it has not seen before. */
export const pollInbox = pikkuTriggerFunc<{ url: string; everySeconds: number }, InboxItem>(
  async ({ logger }, { url, everySeconds }, { trigger }) => {
    const seen = new Set<string>()

    const poll = async () => {
      try {
        const response = await fetch(url)
        if (!response.ok) throw new Error(`the feed answered ${response.status}`)
        const items = (await response.json()) as InboxItem[]
        for (const item of items) {
          if (seen.has(item.itemId)) continue
          seen.add(item.itemId)
          trigger.invoke(item)
        }
      } catch (error) {
        // A failed poll is logged and retried on the next tick. Thrown instead, it would fail the source's start on the
        // first poll, and on a later tick be an unhandled rejection, which ends a Node.js process.
        logger.warn(`Inbox poll failed: ${String(error)}`)
      }
    }

    await poll()
    const timer = setInterval(poll, everySeconds * 1000)
    // The teardown: InMemoryTriggerService.stop() calls it.
    return () => clearInterval(timer)
  },
)
// #endregion pollInbox

// #region createTodoFromInbox
/**
 * The target: runs once per fired event, with no session, so it is a sessionless function. Its input is written
 * `Readonly<InboxItem>` rather than `InboxItem`: at CLI 0.12.113 a bare named type as a whole input or output can
 * get no schema on a clean .pikku/ (PKU463), while a wrapped one is named after the function and always gets one.
 */
export const createTodoFromInbox = pikkuSessionlessFunc<Readonly<InboxItem>, Todo>({
  description: 'Create a to-do for an item assigned to a team member in the tracker',
  func: async ({ todoStore }, { title, assigneeId, dueAt }) => {
    return await todoStore.create({ ownerId: assigneeId, title, dueAt, done: false })
  },
})
// #endregion createTodoFromInbox
