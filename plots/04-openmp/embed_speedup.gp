# caption: An embarrassingly parallel batch: hash embeddings of many documents, split over documents with one pragma. No locks, no reduction, no shared writes and little memory traffic per document: the closest to the ideal line of the chapter.
# data: embed.csv
load 'plots/common.gp'
call 'plots/speedup.gp' 'embed.csv' 'embed_openmp' 'Embedding a batch of documents: speedup against threads'
