/** One stored job of the table-backed queue. */
export interface JobRow {
  id: string
  queueName: string
  data: unknown
  /** Epoch milliseconds before which the job is not claimed. */
  runAfter: number
  attemptsLeft: number
  /** The producer's signed identity claim, passed through untouched. */
  pikkuUserId?: string
}

/** What the table-backed queue needs from its storage: a SQL table, a hosted API, or memory. */
export interface JobTable {
  insert(job: Omit<JobRow, 'id'>): Promise<string>
  /** Takes the next due job of a queue so that no other worker gets it, or undefined when there is none. */
  claimNext(queueName: string): Promise<JobRow | undefined>
  complete(id: string): Promise<void>
  /** Releases the job to run again after `delayMs`, one attempt fewer; drops it when no attempts are left. */
  retryLater(id: string, delayMs: number): Promise<void>
  drop(id: string): Promise<void>
}

/** A JobTable in process memory, for tests and local runs: producer and workers must share the instance. */
export class InMemoryJobTable implements JobTable {
  private readonly rows = new Map<string, JobRow & { claimed: boolean }>()

  async insert(job: Omit<JobRow, 'id'>): Promise<string> {
    const id = crypto.randomUUID()
    this.rows.set(id, { ...job, id, claimed: false })
    return id
  }

  async claimNext(queueName: string): Promise<JobRow | undefined> {
    for (const row of this.rows.values()) {
      if (row.queueName === queueName && !row.claimed && row.runAfter <= Date.now()) {
        row.claimed = true
        return row
      }
    }
    return undefined
  }

  async complete(id: string): Promise<void> {
    this.rows.delete(id)
  }

  async retryLater(id: string, delayMs: number): Promise<void> {
    const row = this.rows.get(id)
    if (!row) return
    if (row.attemptsLeft <= 1) {
      this.rows.delete(id)
      return
    }
    row.attemptsLeft -= 1
    row.runAfter = Date.now() + delayMs
    row.claimed = false
  }

  async drop(id: string): Promise<void> {
    this.rows.delete(id)
  }
}
