export { echo as handler } from './gateway-probe.ts';
