// Framework floor, bottom: hello-world JSON from bare node:http.
import { sendJson, serve } from './serve.mjs';

serve((_req, res) => sendJson(res, 200, { message: 'hello' }));
