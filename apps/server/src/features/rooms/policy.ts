// Who may do what in a live room: the contract's table (packages/contract/src/policies.ts), enforced.
import { ROOM_POLICY } from '@parla/contract/policies';
import { createPolicy } from '../../platform/policy';

export const roomPolicy = createPolicy(ROOM_POLICY);
