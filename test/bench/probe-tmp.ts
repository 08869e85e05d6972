import { startBenchStack } from './support/bench-stack.ts';
import { observeDynamoDbCalls } from '../../shared/db/call-observer.ts';
import { createUser } from '../../shared/domain/users/create-user.ts';
const stack = await startBenchStack('probe' + Date.now().toString(36));
try {
  observeDynamoDbCalls(async (call, send) => {
    const out = await send();
    console.log(call.operation, JSON.stringify(call.input).slice(0, 300), JSON.stringify(out).slice(0, 300));
    return out;
  });
  const u = await createUser({ login: 'probe_a', email: 'probe_a@example.com' });
  const auth = `Basic ${Buffer.from(`${u.username}:${u.app_password}`).toString('base64')}`;
  for (const path of ['/profile/me', '/feeds']) {
    const r = await fetch(stack.apiUrl + path, { headers: { authorization: auth } });
    console.log(path, r.status, r.headers.get('x-local-dynamodb'));
  }
} finally {
  await stack.stop();
}
