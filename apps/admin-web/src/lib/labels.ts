import { ADMIN_REPORT_REASON_LABELS, AUDIT_ACTION_LABELS, type AuditAction, type ReportReason } from '@mate/contracts';
import type { BadgeProps } from '@mate/ui';

/** Spec 001 §3: known reasons by label; unknown reasons as they are. */
export function reasonLabel(reason: string): string {
  return ADMIN_REPORT_REASON_LABELS[reason as ReportReason] ?? reason;
}

export function auditActionLabel(action: string): string {
  return AUDIT_ACTION_LABELS[action as AuditAction] ?? action;
}

/** Spec 001 §2 status badges: orange for pending, green for reviewed, grey for anything else. */
export function statusBadgeTone(status: string): NonNullable<BadgeProps['tone']> {
  if (status === 'pending') return 'warning';
  if (status === 'reviewed') return 'success';
  return 'neutral';
}

export function capitalize(text: string): string {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}
