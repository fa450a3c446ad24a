import { pikkuAgentMiddleware } from '#pikku/middleware'

// #region todayInInstructions
/** Tells the model today's date, so "due tomorrow" becomes a real date in createTodo and updateTodo. */
export const todayInInstructions = pikkuAgentMiddleware({
  modifyInput: (_services, { messages, instructions }) => ({
    messages,
    instructions: `${instructions}\n\nToday is ${new Date().toISOString().slice(0, 10)}.`,
  }),
})
// #endregion todayInInstructions

// #region toolAudit
/** Logs each tool call an agent runs: the tool's name, its input and how long it took. */
export const toolAudit = pikkuAgentMiddleware({
  afterToolCall: ({ logger }, { toolName, args, durationMs }) => {
    logger.info(`agent called ${toolName} in ${durationMs} ms`, { args })
  },
})
// #endregion toolAudit
