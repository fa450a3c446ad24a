import type { Todo } from './todo-store.js'

/**
 * Each user's changes go out on their own topic, `todos:<userId>`, so a subscriber only ever hears about
 * to-dos it owns. The payload repeats the topic: the event hub sends it as given, and the generated
 * WebSocket client's subscribeToEventHub matches messages on their `topic` field.
 */
export type TodoTopic = `todos:${string}`

export type TodoChanged = { topic: TodoTopic; data: Todo }

/** Every topic the app publishes on, with the payload each one carries. */
export type TodoTopics = Record<TodoTopic, TodoChanged>

export const todoTopic = (ownerId: string): TodoTopic => `todos:${ownerId}`
