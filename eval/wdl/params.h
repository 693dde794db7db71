/* The WDL model's constants (eval/wdl.h), written by eval/wdl/fit.py: do
 * not edit; remake them with the commands of eval/README.md, "The WDL
 * model", with each new net.
 * Data: rokade-train --wdl-table: /root/data/gen7-snap.vf; 148542 games,
 * 16838893 positions. 16838893 positions; mean log-likelihood per position:
 * model -0.51762, the old fixed logistic (150, 65) -0.61312; on the 16838893
 * positions of step one, model -0.51762, free a and b per material -0.51646
 */
#ifndef ROKADE_WDL_PARAMS_H
#define ROKADE_WDL_PARAMS_H

#define WDL_MIN 10
#define WDL_MAX 78
static const double WdlA[4] = {-113.388517, 315.454695, -343.948100, 233.430810};
static const double WdlB[4] = {-12.956623, 11.578060, 42.533821, 44.522531};

#endif
