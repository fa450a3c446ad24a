import { pikkuFunc } from '#pikku/function'
import { MissingCredentialError, NotFoundError } from '#pikku/error'
import { TypedCredentialService } from '#pikku/credentials'
import type { CalendarToken } from '../credentials.js'
import { isTodoOwner } from '../permissions.js'

// #region addTodoToCalendar
/** Puts a to-do with a due date into the caller's own Google Calendar, with the token they linked. */
export const addTodoToCalendar = pikkuFunc<{ todoId: string }, { eventId: string }>({
  description: "Add a to-do with a due date to the caller's Google Calendar",
  permissions: { isTodoOwner },
  errors: [NotFoundError],
  func: async ({ todoStore }, { todoId }, { getCredential }) => {
    const todo = await todoStore.get(todoId)
    if (!todo?.dueAt) throw new NotFoundError(`No to-do with a due date has id ${todoId}`)

    // Loaded for the caller (session.userId) on first use; null until they have linked an account. The wire's
    // getCredential is not typed per credential name, so the type argument says what the schema holds.
    const calendar = await getCredential?.<CalendarToken>('google-calendar')
    if (!calendar) throw new MissingCredentialError('google-calendar', 'oauth2')

    const response = await fetch('https://www.googleapis.com/calendar/v3/calendars/primary/events', {
      method: 'POST',
      headers: { authorization: `Bearer ${calendar.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        summary: todo.title,
        start: { dateTime: todo.dueAt },
        end: { dateTime: todo.dueAt },
      }),
    })
    const event = (await response.json()) as { id: string }
    return { eventId: event.id }
  },
})
// #endregion addTodoToCalendar

// #region listMyConnections
/** Which of the declared credentials the caller has connected, for a settings page. */
export const listMyConnections = pikkuFunc<void, { connections: { name: string; displayName: string; connected: boolean }[] }>({
  description: 'List the integrations the caller can connect, and which ones they have',
  func: async ({ credentialService }, _data, { session }) => {
    const status = await new TypedCredentialService(credentialService).getAllStatus(session.userId)
    return {
      connections: status.map(({ name, displayName, isConfigured }) => ({ name, displayName, connected: isConfigured })),
    }
  },
})
// #endregion listMyConnections
