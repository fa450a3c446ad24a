import { wireHTTPRoutes } from '#pikku/http'
import { answerApproval, askAssistant, planMyDay, resumeAssistant, streamAssistant } from './assistant.functions.js'

// #region routes
// Every route needs a session (the HTTP default): the agent's threads belong to the signed-in user.
// The streaming routes are POSTs with sse: true, which a route group allows and wireHTTP does not.
wireHTTPRoutes({
  routes: {
    ask: { method: 'post', route: '/assistant/messages', func: askAssistant },
    approve: { method: 'post', route: '/assistant/approvals', func: answerApproval },
    stream: { method: 'post', route: '/assistant/stream', func: streamAssistant, sse: true },
    resume: { method: 'post', route: '/assistant/resume', func: resumeAssistant, sse: true },
    plan: { method: 'post', route: '/assistant/plan', func: planMyDay },
  },
})
// #endregion routes
