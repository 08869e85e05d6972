import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as route53 from 'aws-cdk-lib/aws-route53';
import * as targets from 'aws-cdk-lib/aws-route53-targets';
import { Construct } from 'constructs';
import type { CustomDomainConfig } from '../config.ts';

export interface ApiDomainProps {
  readonly domain: CustomDomainConfig;
}

/**
 * The API's custom domain, all of it created here: an ACM certificate validated by DNS records in the stage's
 * hosted zone (so it renews itself), the regional API Gateway domain name (TLS 1.2), and A/AAAA alias records
 * pointing the name at it. The stage maps itself onto `domainName` (api-stack.ts). The zone is referenced by id
 * and name from the configuration, so synth needs no lookup and no credentials.
 */
export class ApiDomain extends Construct {
  readonly domainName: apigw.DomainName;
  /** `https://<name>`, what clients use and what functions build their links on. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: ApiDomainProps) {
    super(scope, id);
    const { domain } = props;
    const zone = route53.HostedZone.fromHostedZoneAttributes(this, 'Zone', {
      hostedZoneId: domain.hostedZoneId,
      zoneName: domain.hostedZoneName,
    });
    const certificate = new acm.Certificate(this, 'Certificate', {
      domainName: domain.name,
      validation: acm.CertificateValidation.fromDns(zone),
    });
    this.domainName = new apigw.DomainName(this, 'DomainName', {
      domainName: domain.name,
      certificate,
      securityPolicy: apigw.SecurityPolicy.TLS_1_2,
    });
    const target = route53.RecordTarget.fromAlias(
      new targets.ApiGatewayv2DomainProperties(
        this.domainName.regionalDomainName,
        this.domainName.regionalHostedZoneId,
      ),
    );
    new route53.ARecord(this, 'AliasA', { zone, recordName: domain.name, target });
    new route53.AaaaRecord(this, 'AliasAaaa', { zone, recordName: domain.name, target });
    this.url = `https://${domain.name}`;
  }
}
