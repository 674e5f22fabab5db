import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from './error-code.js';
import { errorEnvelope } from './error-envelope.js';

/**
 * Fastify's `frameworkErrors`: the router refused the URL before any route, hook or Nest filter ran (in practice
 * a percent-escape that does not decode, `/projects/%zz`). Answered 400 in the envelope, with the request id and
 * the security headers the onRequest hook would have set.
 */
export function answerRouterError(securityHeaders: Record<string, string>) {
  return (_error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    void reply
      .headers(securityHeaders)
      .header('x-request-id', request.id)
      .status(400)
      .send(errorEnvelope(ErrorCode.BadRequest, 'The request path is not a valid URL (check its percent-escapes)', request.id));
  };
}

/**
 * Fastify's `clientErrorHandler`: Node's HTTP parser refused the request before Fastify saw it (headers over
 * `maxHeaderSize`, a malformed request line, a timeout). There is no request object, so the request id is
 * generated; the connection is closed, as Node and Fastify do.
 */
export function answerClientError(securityHeaders: Record<string, string>) {
  return (error: Error & { code?: string }, socket: Duplex): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, code, message] = describeClientError(error.code);
    if (socket.writable) writeErrorAndClose(socket, { status, code, message, requestId: randomUUID(), headers: securityHeaders });
    else socket.destroy(error);
  };
}

/**
 * Writes an envelope answer straight to a socket that no framework will answer (Node's parser refused the request,
 * or a WebSocket handshake failed), then ends the connection.
 */
export function writeErrorAndClose(
  socket: Duplex,
  answer: { status: number; code: string; message: string; requestId: string; headers: Record<string, string> },
): void {
  const body = JSON.stringify(errorEnvelope(answer.code, answer.message, answer.requestId));
  const headers = {
    ...answer.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': answer.requestId,
    connection: 'close',
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n${head}\r\n${body}`);
}

function describeClientError(code: string | undefined): [number, ErrorCode, string] {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, ErrorCode.HeadersTooLarge, `The request line and headers exceed ${maxHeaderSize} bytes`];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, ErrorCode.RequestTimeout, 'The request was not received in time'];
  return [400, ErrorCode.BadRequest, 'The request is not valid HTTP'];
}
