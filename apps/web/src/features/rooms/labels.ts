// Names the room screens show: domains (dates are lib/format's).
import type { Domain } from '@parla/contract/constants';

/** The translation key of a domain's readable name ("FNB" → "Food and drink"). */
export const domainKey = (domain: Domain) => `rooms.domains.${domain}` as const;
