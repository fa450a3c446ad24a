import { pikkuWorkflowGraph } from '#pikku/workflow'

// #region nudgeOwnerGraph
/**
 * A graph workflow: two nodes, each naming a function, and the wiring between them.
 * `findOpen` reads the run's input; `remind` runs once for each id that `findOpen` returned.
 */
export const nudgeOwnerGraph = pikkuWorkflowGraph({
  description: "Remind an owner of each of their open to-dos, one after another",
  tags: ['reminders'],
  nodes: {
    findOpen: 'listOpenTodoIds',
    remind: 'sendReminder',
  },
  config: {
    findOpen: {
      input: (ref) => ({ ownerId: ref('trigger', 'ownerId') }),
      next: 'remind',
    },
    remind: {
      forEach: (ref) => ref('findOpen', 'todoIds'),
      mode: 'sequential',
      input: (_ref, _template, $item) => ({ todoId: $item() }),
    },
  },
})
// #endregion nudgeOwnerGraph
