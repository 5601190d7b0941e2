import { AppError } from '../../app/errors';

export interface SubscriptionLimits {
  /** Live subscriptions one connection (socket, Electron window) may hold. */
  perSocket: number;
  /** Live subscriptions one user may hold across all of their connections. */
  perUser: number;
}

/**
 * Every subscription costs a server-side queue and work at the source (a
 * metrics.watch replays an hour of history and then pushes every second), so
 * the number a client can hold is bounded per connection and per user.
 */
export const DEFAULT_SUBSCRIPTION_LIMITS: SubscriptionLimits = { perSocket: 64, perUser: 256 };

/** Live subscriptions per user, across that user's connections to one dispatcher. */
export class SubscriptionCaps {
  private readonly byUser = new Map<string, number>();

  constructor(readonly limits: SubscriptionLimits = DEFAULT_SUBSCRIPTION_LIMITS) {}

  /** Takes a slot for `user`, whose connection holds `onSocket` already; throws past either cap. */
  take(user: string, onSocket: number): void {
    const held = this.byUser.get(user) ?? 0;
    const { perSocket, perUser } = this.limits;
    if (onSocket >= perSocket) {
      throw new AppError(
        'TOO_MANY_SUBSCRIPTIONS',
        `This connection already has ${onSocket} live subscriptions, the most one connection may hold (${perSocket}); close a view or end a subscription first`,
      );
    }
    if (held >= perUser) {
      throw new AppError(
        'TOO_MANY_SUBSCRIPTIONS',
        `You already have ${held} live subscriptions across your open tabs, the most one user may hold (${perUser}); close a tab or end a subscription first`,
      );
    }
    this.byUser.set(user, held + 1);
  }

  release(user: string): void {
    const held = (this.byUser.get(user) ?? 0) - 1;
    if (held > 0) this.byUser.set(user, held);
    else this.byUser.delete(user);
  }

  held(user: string): number {
    return this.byUser.get(user) ?? 0;
  }
}
