import { z } from 'zod'
import { defineCredential } from '#pikku/auth'
import { defineSecret } from '#pikku/secrets'

/** What a linked Google Calendar account gives the app: an access token, stored per user. */
export const CalendarTokenSchema = z.object({ accessToken: z.string() })
export type CalendarToken = z.infer<typeof CalendarTokenSchema>

/** The app's own OAuth client at Google, set once by whoever runs the app. */
export const CalendarOAuthAppSchema = z.object({ clientId: z.string(), clientSecret: z.string() })

// #region googleCalendar
defineCredential({
  name: 'google-calendar',
  displayName: 'Google Calendar',
  description: 'Lets a user put their to-dos with a due date into their own Google Calendar',
  type: 'wire',
  schema: CalendarTokenSchema,
  oauth2: {
    appCredentialSecretId: 'GOOGLE_CALENDAR_APP',
    tokenSecretId: 'GOOGLE_CALENDAR_TOKENS',
    authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
    scopes: ['https://www.googleapis.com/auth/calendar.events'],
    pkce: true,
  },
})

defineSecret({
  name: 'googleCalendarApp',
  displayName: 'Google Calendar OAuth app',
  description: "The client id and secret of the app's Google OAuth client",
  secretId: 'GOOGLE_CALENDAR_APP',
  schema: CalendarOAuthAppSchema,
})
// #endregion googleCalendar
