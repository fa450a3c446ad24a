/** Posts a text message to a chat's incoming-webhook URL (the kind Slack, Teams and Mattermost hand out). */
export class ChatWebhook {
  constructor(private readonly url: string) {}

  async post(text: string): Promise<void> {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    })
    if (!response.ok) throw new Error(`The chat webhook answered ${response.status}`)
  }
}
