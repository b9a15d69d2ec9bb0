// Who may do what in a chat: the contract's table (packages/contract/src/policies.ts), enforced.
import { CHAT_POLICY } from '@parla/contract/policies';
import { createPolicy } from '../../platform/policy';

export const chatPolicy = createPolicy(CHAT_POLICY);
