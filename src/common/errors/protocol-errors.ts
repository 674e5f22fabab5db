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
    const requestId = randomUUID();
    const body = JSON.stringify(errorEnvelope(code, message, requestId));
    const headers = { ...securityHeaders, 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)), 'x-request-id': requestId, connection: 'close' };
    if (socket.writable) {
      const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
      socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`);
    }
    socket.destroy(error);
  };
}

function describeClientError(code: string | undefined): [number, ErrorCode, string] {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, ErrorCode.HeadersTooLarge, `The request line and headers exceed ${maxHeaderSize} bytes`];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, ErrorCode.RequestTimeout, 'The request was not received in time'];
  return [400, ErrorCode.BadRequest, 'The request is not valid HTTP'];
}
