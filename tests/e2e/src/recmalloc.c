/* malloc/free from recursive code: build(4) makes a full binary tree of
   31 nodes; build is called 63 times (1 from main, 62 from itself, the
   32 calls with d < 0 return NULL), free_tree likewise (32 calls see a
   NULL child). */
#include <stdio.h>
#include <stdlib.h>
#include "fixture.h"

struct node { struct node *l, *r; int v; };

NOIPA struct node *build(int d)
{
   struct node *n;
   if (d < 0)
      return NULL;
   n = malloc(sizeof *n);
   if (!n)
      abort();
   n->v = d;
   n->l = build(d - 1);
   n->r = build(d - 1);
   return n;
}

NOIPA void free_tree(struct node *n)
{
   if (!n)
      return;
   free_tree(n->l);
   free_tree(n->r);
   free(n);
}

int main(void)
{
   struct node *t = build(4);
   printf("%d\n", t->v);
   free_tree(t);
   return 0;
}
