/**
 * Talking to a person at a terminal: the yes/no question apply asks before its first write. The
 * streams are parameters (processIo passes the process's), so tests drive it with their own.
 */
import { createInterface } from 'node:readline/promises';

/**
 * Asks `question` and takes only "yes" as yes. Ctrl-C at the prompt (readline turns it into an
 * AbortError, or a 'SIGINT' on the interface) is an interruption, not an internal error: nothing
 * was changed, exit 130. Ctrl-D (the end of input, which closes the interface and would leave the
 * question unanswered) is a "no".
 */
export async function askYes(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, question: string): Promise<'yes' | 'no' | 'interrupted'> {
  const rl = createInterface({ input, output });
  const controller = new AbortController();
  let interrupted = false;
  let answered = false;
  rl.once('SIGINT', () => {
    interrupted = true;
    controller.abort();
  });
  rl.once('close', () => {
    if (answered || interrupted) return;
    // The cursor is still after the prompt.
    output.write('\n');
    controller.abort();
  });
  try {
    const answer = await rl.question(question, { signal: controller.signal });
    answered = true;
    return answer.trim() === 'yes' ? 'yes' : 'no';
  } catch (err) {
    if (err instanceof Error && err.name === 'AbortError') return interrupted ? 'interrupted' : 'no';
    throw err;
  } finally {
    answered = true;
    rl.close();
  }
}
