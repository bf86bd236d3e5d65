import { Injectable } from '@nestjs/common';
import type { EventHandlers, EventHandlerSet } from '@mate/server-kit';

/** Every event admin-service consumes feeds the analytics event store. */
@Injectable()
export class AnalyticsEventHandlers implements EventHandlerSet {
  handlers(): EventHandlers {
    return {};
  }
}
