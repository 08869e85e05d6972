import type { CfnResource } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * The metadata key naming what a stateful resource is to the catalogue (`table`, `bucket`, `queue:mail`,
 * `dlq:mail`, `secret:cursorKey`, `mailIdentity`, `cdn`). The local bundled mode (infra/local/bundled/) reads it
 * from the synthesized template to resolve references to the matching local resource. Metadata only: adding or
 * changing it never touches the deployed resource.
 */
export const LOCAL_BINDING_KEY = 'community:resource';

export function markForLocalBinding(construct: IConstruct, binding: string): void {
  (construct.node.defaultChild as CfnResource).addMetadata(LOCAL_BINDING_KEY, binding);
}
