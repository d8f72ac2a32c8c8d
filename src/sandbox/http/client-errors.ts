// Requests Node's HTTP parser refuses before any route sees them (a path or headers over 16 KiB, broken HTTP):
// answered with problem details like every other error, instead of Node's empty 400 or 431.
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ProblemError } from './problem.js';

const REFUSALS: Record<string, ProblemError> = {
  HPE_HEADER_OVERFLOW: new ProblemError(431, 'The request line and headers must be at most 16 KiB together: shorten the path, the query or the headers.'),
  ERR_HTTP_REQUEST_TIMEOUT: new ProblemError(408, 'The request did not arrive in time.'),
};
const MALFORMED = new ProblemError(400, 'The request is not valid HTTP/1.1.');

export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A connection the client already dropped, or one with an answer under way, has no room for another. A request
    // whose body is still arriving when its time is up has a route waiting on it, but no answer begun: it gets the 408.
    const answering = (socket as Duplex & { _httpMessage?: { headersSent: boolean } })._httpMessage;
    const bodyTooSlow = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' && answering?.headersSent === false;
    if (error.code === 'ECONNRESET' || !socket.writable || (answering && !bodyTooSlow)) {
      socket.destroy();
      return;
    }
    const problem = REFUSALS[error.code ?? ''] ?? MALFORMED;
    const body = JSON.stringify(problem.toJSON());
    socket.end(
      `HTTP/1.1 ${problem.status} ${problem.toJSON().title}\r\nContent-Type: application/problem+json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
