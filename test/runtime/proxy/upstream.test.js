// runtime/chain/proxy: the one check of an upstream URL, whichever way it is set.
import t from 'tap';
import { checkUpstreamUrl } from '../../../dist/runtime/chain/proxy/index.js';

t.test('http(s) URLs with a host and a usable port pass, a path too', async (t) => {
  for (const url of ['http://localhost:8080', 'https://api.example.com', 'HTTP://Example.com/base/', 'http://[::1]:9000/v1', 'http://user:pw@host:1/']) t.equal(checkUpstreamUrl(url), undefined, url);
});

t.test('what the proxy could not use is refused, naming what is expected', async (t) => {
  for (const url of ['http://[::1', 'http://localhost:99999', 'ftp://files.example', 'not a url', 'http:/x', 'http://', 'http://a b', '//host/x']) {
    t.match(checkUpstreamUrl(url), /^expected an http\(s\) URL such as http:\/\/localhost:8080, got /, url);
  }
  t.match(checkUpstreamUrl('http://host/x?key=1'), /without a query or fragment/);
  t.match(checkUpstreamUrl('http://host/#top'), /without a query or fragment/);
  t.match(checkUpstreamUrl(42), /got 42/);
});
