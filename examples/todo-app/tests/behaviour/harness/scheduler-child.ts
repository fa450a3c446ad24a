// An InMemorySchedulerService in a process of its own, for whether a pending scheduleRPC call keeps the process
// alive: schedules a call an hour ahead, calls stop(), and prints {"hasRef":…,"timeouts":…} on stdout. On any line
// on stdin it calls close(), releases stdin and does nothing else, so the process ends only if nothing holds it.
// The test that spawns it kills it if it is still running.
import { InMemorySchedulerService } from '@pikku/schedule'

const scheduler = new InMemorySchedulerService()
const taskId = await scheduler.scheduleRPC('1h', 'sendReminder', { todoId: 't-child' })
await scheduler.stop()
// The service's own record of the call, read only to report whether its timer holds the event loop.
const timer = (scheduler as unknown as { delayedTasks: Map<string, { timer: NodeJS.Timeout }> }).delayedTasks.get(taskId)?.timer
const timeouts = process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length
process.stdout.write(`${JSON.stringify({ hasRef: timer?.hasRef() ?? null, timeouts })}\n`)
process.stdin.once('data', async () => {
  process.stdin.destroy()
  await scheduler.close()
})
