// A loopback HTTP server that answers from a queue of scripted replies and records every request:
// the common part of the fake OpenAI and Gemini servers. Port 0, 127.0.0.1 only. Faults a real
// provider produces can be injected: a status with headers (429 + Retry-After, 5xx), a late first
// byte (delayMs), a body that stops half-way (stallBodyMs), a connection reset (reset), and a fault
// that answers every request for a while (fault(), e.g. a 50 s outage) ahead of the queue.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
  /** Date.now() when it arrived. */
  at: number;
}

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  body: unknown;
  /** Wait this long before answering (to provoke client timeouts). */
  delayMs?: number;
  /** Send the headers and half the body, then pause this long before the rest (a provider that hangs mid-response). */
  stallBodyMs?: number;
  /** Drop the connection without answering (ECONNRESET on the client). */
  reset?: boolean;
}

/** Answers ahead of the queue while it returns a reply; undefined lets the request through to the queue. */
export type FaultInjector = (req: ReceivedRequest) => FakeReply | undefined;

export type ReplySource = FakeReply | ((req: ReceivedRequest) => FakeReply);

export interface FakeServerSpec {
  /** The reply when the request is not authorised, or undefined to go on. */
  authorise(req: ReceivedRequest): FakeReply | undefined;
  /** The reply when the queue is empty (a test asked for more than it scripted). */
  exhausted(req: ReceivedRequest): FakeReply;
  /** Does this path belong to the API at all? */
  routes(path: string): boolean;
}

export class FakeLlmServer {
  readonly requests: ReceivedRequest[] = [];
  private readonly queue: ReplySource[] = [];
  private injector: FaultInjector | undefined;
  private constructor(private readonly server: http.Server, readonly origin: string) {}

  static async start(spec: FakeServerSpec): Promise<FakeLlmServer> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('error', () => {});
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: unknown = raw;
        try {
          body = raw ? JSON.parse(raw) : undefined;
        } catch {
          /* keep the raw text */
        }
        const received: ReceivedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body, at: Date.now() };
        self.requests.push(received);
        let reply: FakeReply;
        if (!spec.routes(received.path)) reply = { status: 404, body: { error: { message: `fake server: no route ${received.path}` } } };
        else reply = spec.authorise(received) ?? self.injector?.(received) ?? self.next(received) ?? spec.exhausted(received);
        const send = () => {
          if (reply.reset) {
            req.socket.destroy();
            return;
          }
          const text = JSON.stringify(reply.body);
          res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...reply.headers });
          if (!reply.stallBodyMs) {
            res.end(text);
            return;
          }
          const half = Math.floor(text.length / 2);
          res.write(text.slice(0, half));
          const timer = setTimeout(() => res.end(text.slice(half)), reply.stallBodyMs);
          res.on('close', () => clearTimeout(timer));
        };
        if (reply.delayMs) setTimeout(send, reply.delayMs);
        else send();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // Requests (which read `self`) can only come once the server listens and its port is known.
    const self = new FakeLlmServer(server, `http://127.0.0.1:${port}`);
    return self;
  }

  private next(req: ReceivedRequest): FakeReply | undefined {
    const src = this.queue.shift();
    return typeof src === 'function' ? src(req) : src;
  }

  /** Replies to give, in order, one per request. */
  enqueue(...replies: ReplySource[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Answer ahead of the queue with `injector` (until `clearFault()`, or for as long as it returns a reply). */
  fault(injector: FaultInjector): this {
    this.injector = injector;
    return this;
  }

  clearFault(): this {
    this.injector = undefined;
    return this;
  }

  /** Forget scripted replies, injected faults and recorded requests (between subtests sharing one server). */
  reset(): this {
    this.queue.length = 0;
    this.requests.length = 0;
    this.injector = undefined;
    return this;
  }

  get pending(): number {
    return this.queue.length;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
