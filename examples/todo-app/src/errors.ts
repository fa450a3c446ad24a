import { PikkuError, addError } from '#pikku/error'

/** Thrown when a caller already has as many open to-dos as the app allows. */
export class TodoLimitReachedError extends PikkuError {}

addError(TodoLimitReachedError, {
  status: 409,
  message: 'You have reached the limit of open to-do items',
})
