import { z } from 'zod'
import { defineVariable } from '#pikku/variables'

export const EscalationHoursSchema = z.number().int().positive()
export const ReminderSenderSchema = z.email()

// #region escalationDelay
defineVariable({
  name: 'escalationDelay',
  displayName: 'Escalation delay (hours)',
  description: 'How many hours an open to-do may be overdue before it is listed for escalation',
  variableId: 'REMINDER_ESCALATION_HOURS',
  schema: EscalationHoursSchema,
})
// #endregion escalationDelay

// #region reminderSender
defineVariable({
  name: 'reminderSender',
  displayName: 'Reminder sender address',
  description: 'The From address of reminder e-mails; a default is used when unset',
  variableId: 'REMINDER_FROM_ADDRESS',
  schema: ReminderSenderSchema,
  optional: true,
})
// #endregion reminderSender
