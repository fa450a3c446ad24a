// Stand-in for .pikku/workflow/pikku-workflow-map.gen.d.ts, which `pikku all` writes with
// packages/cli/src/functions/wirings/workflow/serialize-workflow-map.ts (cli 0.12.113): one entry per DSL workflow
// (pikkuWorkflowFunc / pikkuWorkflowComplexFunc) with the input and output types the inspector resolved for it, and
// the input type of each function node of each graph (pikkuWorkflowGraph). Graphs are not in WorkflowMap: the
// serializer builds it from the DSL workflows' meta only. The app wires no addons, so FlattenedWorkflowMap is
// WorkflowMap, as the serializer writes it then.

interface WorkflowHandler<I, O> {
  input: I
  output: O
}

interface GraphNodeHandler<I> {
  input: I
}

export type WorkflowMap = {
  readonly todoReminderWorkflow: WorkflowHandler<
    { todoId: string },
    { outcome: 'closed' | 'done-after-reminder' | 'escalated' }
  >
}

export type GraphsMap = {
  readonly nudgeOwnerGraph: {
    readonly findOpen: GraphNodeHandler<{ ownerId: string }>
    readonly remind: GraphNodeHandler<{ todoId: string }>
  }
}

export type FlattenedWorkflowMap = WorkflowMap

export type WorkflowClient<Name extends keyof FlattenedWorkflowMap> = {
  start: (input: FlattenedWorkflowMap[Name]['input']) => Promise<{ runId: string }>
  getRun: <output extends keyof FlattenedWorkflowMap[Name]>(runId: string) => Promise<FlattenedWorkflowMap[Name][output]>
  cancelRun: (runId: string) => Promise<boolean>
}

export type TypedWorkflowClients = {
  [Name in keyof FlattenedWorkflowMap]: WorkflowClient<Name>
}
