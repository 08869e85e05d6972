export { slow as handler } from './gateway-probe.ts';
