import { pikkuScenario } from '#pikku/scenarios'

// #region aliceFinishesATodo
/** Alice finishes a to-do, checked the way she would check it: through the app, signed in as herself. */
export const aliceFinishesATodo = pikkuScenario<void, void>({
  description: 'Alice marks her first open to-do done and finds it among the done ones',
  func: async (_services, _data, { scenario, actors }) => {
    const todo = await scenario.given('Alice opens her open to-dos', 'opensFirstOpenTodo', undefined, {
      actor: actors.alice,
    })
    await scenario.when('Alice marks it done', 'marksTodoDone', { todoId: todo.todoId }, { actor: actors.alice })
    await scenario.then('Alice sees it done', 'seesTodoDone', { todoId: todo.todoId }, { actor: actors.alice })
  },
})
// #endregion aliceFinishesATodo
