/* The worker protocol: jobs survive encoding; malformed messages are refused, not trusted. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "exec/job.h"

int main(void) {
  uint8_t img[100], buf[64 + 2 * GASP_GUARD_BYTES];
  for (int i = 0; i < 100; i++) img[i] = (uint8_t)i;
  memset(buf, 0x5a, sizeof buf);
  gasp_job j;
  memset(&j, 0, sizeof j);
  j.image = img;
  j.image_len = sizeof img;
  j.image_hash = 42;
  strcpy(j.kernel, "vector_add");
  j.grid[0] = 17; j.grid[1] = j.grid[2] = 1;
  j.block[0] = 256; j.block[1] = j.block[2] = 1;
  j.nbufs = 1;
  j.bufs[0] = (gasp_job_buf){64, GASP_GUARD_BYTES, buf, 1};
  j.nparams = 2;
  j.params[0] = (gasp_job_param){1, 0, 0, 0};
  j.params[1] = (gasp_job_param){0, 0, 4, 4099};
  j.nonce = 0xfeedULL;
  gasp_wire w;
  gasp_wire_init(&w);
  gasp_job_encode(&j, &w);
  gasp_job k;
  CHECK(gasp_job_decode(&w, &k) == 0, "decode");
  CHECK(k.image_len == 100 && !memcmp(k.image, img, 100) && !strcmp(k.kernel, "vector_add"), "image and name");
  CHECK(k.grid[0] == 17 && k.block[0] == 256 && k.nbufs == 1 && k.bufs[0].size == 64 && k.params[1].bits == 4099 &&
            k.nonce == 0xfeed && !memcmp(k.bufs[0].data, buf, sizeof buf), "fields");
  /* truncated messages are refused at every length */
  int refused = 0;
  for (size_t cut = 0; cut < w.len; cut += 7) {
    gasp_wire t = w;
    t.len = cut;
    t.pos = 0;
    t.bad = 0;
    refused += gasp_job_decode(&t, &k) != 0;
  }
  CHECK(refused == (int)((w.len + 6) / 7), "every truncation refused (%d)", refused);
  /* a parameter naming a buffer that does not exist */
  j.params[0].buf = 5;
  gasp_wire w2;
  gasp_wire_init(&w2);
  gasp_job_encode(&j, &w2);
  CHECK(gasp_job_decode(&w2, &k) != 0, "bad buffer index refused");
  /* framing over a pipe */
  int p[2];
  CHECK(pipe(p) == 0, "pipe");
  CHECK(gasp_msg_write(p[1], GASP_MSG_RUN, "abc", 3) == 0, "write");
  gasp_msg_hdr h;
  gasp_wire r;
  gasp_wire_init(&r);
  CHECK(gasp_msg_read_timeout(p[0], &h, &r, 1000) == 0 && h.type == GASP_MSG_RUN && r.len == 3 && !memcmp(r.p, "abc", 3), "read");
  CHECK(gasp_msg_read_timeout(p[0], &h, &r, 50) == -2, "timeout when nothing comes");
  uint32_t junk[4] = {0xdeadbeef, 2, 3, 0};
  CHECK(write(p[1], junk, sizeof junk) == sizeof junk, "junk");
  CHECK(gasp_msg_read_timeout(p[0], &h, &r, 1000) == -1, "bad magic refused");
  close(p[0]);
  close(p[1]);
  gasp_wire_free(&w);
  gasp_wire_free(&w2);
  gasp_wire_free(&r);
  return DONE();
}
