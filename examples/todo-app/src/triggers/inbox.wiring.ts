import { wireTrigger, wireTriggerSource } from '#pikku/trigger'
import { createTodoFromInbox, pollInbox } from './inbox.functions.js'

// What runs: every event of the 'team-inbox' trigger creates a to-do.
wireTrigger({
  name: 'team-inbox',
  description: 'A new item assigned in the tracker becomes a to-do',
  func: createTodoFromInbox,
})

// How events are detected: poll the tracker's feed once a minute. The name joins it to the trigger above.
wireTriggerSource({
  name: 'team-inbox',
  func: pollInbox,
  input: { url: 'https://tracker.example.com/feeds/assigned.json', everySeconds: 60 },
})
