// The notification connection of a PostgreSQL daemon: one client of its own (not the pools'),
// LISTENing on the change channel (other daemons' notices: caches to drop, loops to wake) and the
// acknowledgement channel (peers saying they dropped what this daemon changed). It acknowledges each
// notice that asks, and reconnects after a loss; while it is down the engine keeps its caches off.
import pg from 'pg';
import type { Logger } from '../../log.js';
import { ACK_CHANNEL, CHANNEL, LISTENER_NAME, type AckWaits, type Notice } from './notices.js';

const RETRY_MS = 1_000;

/** What the listener tells its engine. */
export interface ListenerEvents {
  /** LISTEN is in place: every commit from now on will be heard (caches may be used). */
  connected(): void;
  /** The connection is gone (caches must be dropped and not used until `connected`). */
  lost(err?: Error): void;
  /** Another daemon's notice; throws if it cannot be applied (the listener then asks for `unreadable`). */
  notice(notice: Notice): void;
  /** A notice that could not be read or applied: nothing it changed is known. */
  unreadable(): void;
}

export class NoticeListener {
  private client: pg.Client | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** The acknowledgements being sent, one after another on the connection. */
  private acks: Promise<void> = Promise.resolve();
  private backendPid = -1;

  constructor(
    private readonly url: string,
    /** This daemon's id in notices: its own are not acknowledged. */
    private readonly instance: string,
    private readonly ackWaits: AckWaits,
    private readonly log: Logger,
    private readonly events: ListenerEvents,
  ) {}

  /** The backend pid of the connection (not counted as a peer); -1 before the first connect. */
  get pid(): number {
    return this.backendPid;
  }

  /** Connects and LISTENs; on a later loss it reconnects every second until closed. */
  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: LISTENER_NAME });
    const lost = (err?: Error): void => {
      if (this.client !== client) return;
      this.client = undefined;
      this.events.lost(err);
      client.removeAllListeners('notification');
      void client.end().catch(() => undefined);
      if (this.closed) return;
      this.log.warn({ err: err?.message }, 'PostgreSQL notifications lost; caches off until they are back');
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        this.start().catch((e: unknown) => lost(e as Error));
      }, RETRY_MS);
      this.retryTimer.unref();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (msg) => this.received(client, msg));
    this.client = client;
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    await client.query(`LISTEN ${ACK_CHANNEL}`);
    this.backendPid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    this.events.connected();
  }

  /** Stops reconnecting and ends the connection. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private received(client: pg.Client, msg: pg.Notification): void {
    if (msg.payload === undefined) return;
    if (msg.channel === ACK_CHANNEL) {
      this.ackWaits.acknowledged(msg.payload);
      return;
    }
    if (msg.channel !== CHANNEL) return;
    let notice: Notice;
    try {
      notice = JSON.parse(msg.payload) as Notice;
      this.events.notice(notice);
    } catch (err) {
      this.log.warn({ err }, 'unreadable change notice; dropping every cache');
      this.events.unreadable();
      return;
    }
    // Dropped: tell the daemon that committed, which answers its caller only once every peer has.
    // One query at a time on the connection (acks of a burst of notices queue up behind each other).
    if (notice.n !== undefined && notice.i !== this.instance) {
      const ack = JSON.stringify({ n: notice.n, i: this.instance });
      this.acks = this.acks
        .then(() => client.query('SELECT pg_notify($1, $2)', [ACK_CHANNEL, ack]))
        .then(
          () => undefined,
          (err: unknown) => this.log.warn({ err }, 'could not acknowledge a change notice'),
        );
    }
  }
}
