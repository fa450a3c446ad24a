import { pikkuSessionlessFunc } from '#pikku/function'

// #region emailReminder
/** E-mails the owner of a to-do that it falls due. The mail key stays inside the notifier service. */
export const emailReminder = pikkuSessionlessFunc<{ todoId: string; to: string }, { sent: boolean }>({
  description: 'E-mail a reminder for a to-do that falls due',
  func: async ({ todoStore, notifier }, { todoId, to }) => {
    const todo = await todoStore.get(todoId)
    if (!todo || todo.done) return { sent: false }
    await notifier.sendEmail({
      to,
      subject: `Due: ${todo.title}`,
      text: `"${todo.title}" is due ${todo.dueAt ?? 'soon'}.`,
    })
    return { sent: true }
  },
})
// #endregion emailReminder
