// The worker thread of llms-txt: makes the Markdown copies (markdownCopies in llms-txt.mjs) from the data it is
// started with and posts them back; an error ends the worker and rejects the plugin's post-build step.
import { parentPort, workerData } from 'node:worker_threads';
import { markdownCopies } from './llms-txt.mjs';

parentPort.postMessage(markdownCopies(workerData));
